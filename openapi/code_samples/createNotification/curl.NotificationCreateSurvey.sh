curl -sS -X POST "$BASE_URL/notifications" \
  -H "X-Api-Key: $API_KEY" \
  -H "X-Api-Secret: $API_SECRET" \
  -H "Content-Type: application/json" \
  -d '{"name":"Checkout survey","type":"SURVEY","title":"How was checkout today?","content":"Two minutes of your time help us make paying faster.","level":2,"groups":[7],"close_text":"Not now","submit_text":"Send answer","send_at":1894698000}'
