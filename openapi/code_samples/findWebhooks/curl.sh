curl -sS "$BASE_URL/webhooks?limit=10&page=1" \
  -H "Authorization: Bearer $API_KEY"
