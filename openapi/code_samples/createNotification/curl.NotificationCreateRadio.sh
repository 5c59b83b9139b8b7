curl -sS -X POST "$BASE_URL/notifications" \
  -H "X-Api-Key: $API_KEY" \
  -H "X-Api-Secret: $API_SECRET" \
  -H "Content-Type: application/json" \
  -d '{"type":"RADIO","title":"Preferred contact time","content":"When should our support team call you back?","broadcast":true,"send_at":"now","radio":[{"text":"Morning","selected":true},{"text":"Afternoon"},{"text":"Evening"}]}'
