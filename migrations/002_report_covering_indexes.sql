-- Exact total_count on a combination of low-cardinality filters (country + device_type,
-- country + status + dates) read every matching row from the table to check the second
-- filter. Carrying those columns in the indexes (INCLUDE) lets the count run as an
-- index-only scan; the list order (created_at DESC, id) stays the key.
DROP INDEX reports_newest, reports_country, reports_region, reports_device_type, reports_status;
CREATE INDEX reports_newest ON encryption_reports (application_id, created_at DESC, id) INCLUDE (country, region, device_type, status);
CREATE INDEX reports_country ON encryption_reports (application_id, country, created_at DESC, id) INCLUDE (region, device_type, status);
CREATE INDEX reports_region ON encryption_reports (application_id, region, created_at DESC, id) INCLUDE (country, device_type, status);
CREATE INDEX reports_device_type ON encryption_reports (application_id, device_type, created_at DESC, id) INCLUDE (country, region, status);
CREATE INDEX reports_status ON encryption_reports (application_id, status, created_at DESC, id) INCLUDE (country, region, device_type);
