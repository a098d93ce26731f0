import GraphQL

/// The GraphQL side of the metrics, from each response's errors: `storykeep_graphql_errors_total`
/// by tenant and `extensions.code` (`none` for an error without one), and, for errors of `login`
/// and `activateAccount`, `storykeep_login_failures_total` (RATE_LIMITED refusals, which never
/// tried, are not failures) and `storykeep_lockouts_total` (LOCKED_OUT) by tenant; and
/// `storykeep_document_cache_lookups_total` by tenant and `result`, `hit` for a document the
/// tenant's schema had parsed and validated already, `miss` for one it parses now.
extension ServerMetrics {
    func recordDocumentLookup(cached: Bool, tenant: String) {
        counter("storykeep_document_cache_lookups_total", [("tenant", tenant), ("result", cached ? "hit" : "miss")]).increment()
    }

    func record(_ errors: [GraphQLError], tenant: String) {
        for error in errors {
            let code = error.extensions?["code"]?.stringValue ?? "none"
            counter("storykeep_graphql_errors_total", [("tenant", tenant), ("code", code)]).increment()
            guard case .key(let field)? = error.path.first, field == "login" || field == "activateAccount" else { continue }
            if code == "LOCKED_OUT" {
                counter("storykeep_lockouts_total", [("tenant", tenant)]).increment()
            } else if code != "RATE_LIMITED" {
                counter("storykeep_login_failures_total", [("tenant", tenant)]).increment()
            }
        }
    }
}
