curl -sS -X POST "$BASE_URL/notifications" \
  -H "X-Api-Key: $API_KEY" \
  -H "X-Api-Secret: $API_SECRET" \
  -H "Content-Type: application/json" \
  -d '{"type":"CHECKBOX","title":"Which updates do you want?","content":"Pick every kind of message you would like to receive.","receivers":["maria.lopez@acme-shop.example"],"checkbox":[{"text":"Security alerts","selected":true},{"text":"Product news"},{"text":"Billing reminders"}]}'
