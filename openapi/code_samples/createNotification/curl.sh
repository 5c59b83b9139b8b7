curl -sS -X POST "$BASE_URL/notifications" \
  -H "X-Api-Key: $API_KEY" \
  -H "X-Api-Secret: $API_SECRET" \
  -H "Content-Type: application/json" \
  -d '{"name":"Maintenance notice","type":"SIMPLE","title":"Scheduled maintenance","content":"Sign-in will be unavailable on 15 January 2030 from 09:00 to 09:30 UTC.","level":1,"receivers":["usr_7d2e9a4c1b6f","tomas.reyes@acme-shop.example"],"send_at":1894698000}'
