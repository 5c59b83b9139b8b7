curl -sS -X POST "$BASE_URL/custom/emails" \
  -H "Authorization: Bearer $API_KEY" \
  -H "Content-Type: application/json" \
  -d '{"type":"SES","email_from":"no-reply@acme-shop.example","email_admin":"admin@acme-shop.example","email_reply":"support@acme-shop.example","from_name":"Acme Shop","auth":{"region":"eu-west-1","accessKeyId":"AKIAIOSFODNN7EXAMPLE","secretAccessKey":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}}'
