curl -sS -X POST "$BASE_URL/custom/emails" \
  -H "Authorization: Bearer $API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"type":"SENDGRID","email_from":"no-reply@acme-shop.example","email_admin":"admin@acme-shop.example","from_name":"Acme Shop","auth":{"api_key":"SG.demo-9f2c7a1e4b8d6053.rotate-me"}}'
