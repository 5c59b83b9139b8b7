curl -sS -X PUT "$BASE_URL/sms/providers/sms_9e4a1d7c3b2f" \
  -H "Authorization: Bearer $API_KEY" \
  -H "Content-Type: application/json" \
  -d '{}'
