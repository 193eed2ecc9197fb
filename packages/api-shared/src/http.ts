/** The HTTP methods of the management API's operations (docops sends them, the sandbox serves them). */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
