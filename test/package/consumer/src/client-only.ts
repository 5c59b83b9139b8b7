// All a frontend imports for API calls: the bundle of this file is what it ships.
import { createApiClient } from "@authsvc/app-api-contract";

export const api = createApiClient({ baseUrl: "/v1", apiKey: "from-your-config" });
