curl -sS -G "$BASE_URL/reports/encryption" \
  -H "Authorization: Bearer $API_KEY" \
  --data-urlencode "country=ES" \
  --data-urlencode "device_type=ANDROID" \
  --data-urlencode "start_date=1767225600" \
  --data-urlencode "end_date=1798761599" \
  --data-urlencode "limit=10"
