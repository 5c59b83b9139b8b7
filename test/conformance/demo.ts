// The one demo record the state checks need that no example of the document names: the
// default SMS provider of application A (`server/seed/demo.json`). A target checked with
// --stateful must hold application A's demo records.
export const defaultSmsProviderId = "sms_2c7e9b4f1a6d";
