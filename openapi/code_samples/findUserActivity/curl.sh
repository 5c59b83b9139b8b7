curl -sS "$BASE_URL/users/usr_7d2e9a4c1b6f/activity?limit=10&page=1" \
  -H "Authorization: Bearer $API_KEY"
