curl -sS "$BASE_URL/webhooks/whk_3a7f1c9e5b2d" \
  -H "Authorization: Bearer $API_KEY"
