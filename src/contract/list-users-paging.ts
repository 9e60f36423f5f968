/**
 * `GET /users` pages hold at most 2000 users: a larger `pageSize` is refused with 400/1229, and `includeAll=true`
 * answers page 1 of 2000 instead of everything (docs/service.md#paging-list-users). The client, the pre-flight and
 * the reference server read this one constant.
 */
export const LIST_USERS_MAX_PAGE_SIZE = 2000;

/**
 * `include=lastLogin` is honoured only on `GET /users` pages of at most 100 users: "for large responses, the lastLogin
 * attribute is never included" (docs/service.md#list-users). Readers that need it page at this size; the reference
 * server leaves it out of larger pages.
 */
export const LIST_USERS_LAST_LOGIN_MAX_PAGE_SIZE = 100;
