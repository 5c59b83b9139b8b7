curl -sS "$BASE_URL/widgets/wgt_5a3c8e1f7b92" \
  -H "Authorization: Bearer $API_KEY"
