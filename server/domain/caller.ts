/** The application a request's credentials identify. */
export interface Caller {
  applicationId: string;
  organizationId: string;
}
