-- Exact total_count for the broad report filters without reading every matching row: the
-- reports counted per UTC day and combination of the low-cardinality filter columns. A
-- count over those filters sums the whole days of its range here and counts only the two
-- partial days at its ends in encryption_reports. Rebuilt for an application inside the
-- transaction that loads its reports, so it is never out of step with them.
CREATE TABLE report_day_counts (
  application_id text NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
  day date NOT NULL,
  country text NOT NULL,
  region text NOT NULL,
  device_type text NOT NULL,
  status text NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (application_id, day, country, region, device_type, status)
);
-- A country or region filter reads only its own rows; the others read the application's.
CREATE INDEX report_day_counts_country ON report_day_counts (application_id, country, day) INCLUDE (region, device_type, status, n);
CREATE INDEX report_day_counts_region ON report_day_counts (application_id, region, day) INCLUDE (country, device_type, status, n);
CREATE INDEX report_day_counts_day ON report_day_counts (application_id, day) INCLUDE (country, region, device_type, status, n);
