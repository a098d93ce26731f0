import Foundation
import GraphQL
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StorykeepTestSupport
import Testing
import W3CTraceContext

/// Issue 17: W3C `traceparent` is continued (a malformed one ignored), the trace id is on every
/// log line of the request and in its GraphQL errors' `extensions.traceId`, and the tracer sees
/// spans for the request, parse, validate, execute and each SQL statement, named, without values.
@Suite struct TracingHTTPTests {
    static let traceParent = HTTPField.Name("traceparent")!
    static let traceResponse = HTTPField.Name("traceresponse")!

    /// POSTs `query` with `variables` to the tenant's GraphQL endpoint with `headers`: the
    /// response's headers and JSON.
    static func post(
        _ h: AccountsHarness, _ query: String, _ variables: GraphQLObject = [:], token: String? = nil, headers: HTTPFields
    ) async throws -> (HTTPFields, GraphQLValue) {
        var headers = headers
        headers[.contentType] = "application/json"
        if let token { headers[.authorization] = "Bearer \(token)" }
        let body = GraphQLValue.object(["query": .string(query), "variables": .object(variables)]).json
        return try await h.client.execute(
            uri: "/t/\(h.tenant.slug)/graphql", method: .post, headers: headers, body: ByteBuffer(string: body)
        ) { response in (response.headers, try response.json) }
    }

    @Test func aTraceparentIsContinuedInTheLogsTheErrorsAndTheResponse() async throws {
        let logs = CapturedLogs()
        let incoming = TraceContext(traceID: .random(), spanID: .random(), flags: .sampled, state: TraceState())
        let traceID = incoming.traceID.description
        try await withAccounts(logs: logs) { h in
            let (headers, response) = try await Self.post(
                h, "query Broken { noSuchField }", headers: [Self.traceParent: incoming.traceParentHeaderValue, RequestIDTests.requestID: "traced-1"])
            #expect(response.errorCode == "GRAPHQL_VALIDATION_FAILED")
            #expect(response.errorExtensions?["traceId"] == .string(traceID), "\(response.json)")
            let answered = try #require(headers[Self.traceResponse])
            let trace = try TraceContext(traceParentHeaderValue: answered)
            #expect(trace.traceID == incoming.traceID && trace.spanID != incoming.spanID)
            // An error the HTTP layer answers itself (a body that is no JSON) carries it too.
            let malformed = try await h.client.execute(
                uri: "/t/\(h.tenant.slug)/graphql", method: .post,
                headers: [.contentType: "application/json", Self.traceParent: incoming.traceParentHeaderValue], body: ByteBuffer(string: "{"))
            { try $0.json }
            #expect(malformed.errorExtensions?["traceId"] == .string(traceID), "\(malformed.json)")
        }
        let lines = logs.all.filter { $0.metadata["hb.request.id"] == "traced-1" }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.metadata["trace_id"] == traceID }, "\(lines)")
    }

    @Test func aMalformedTraceparentIsIgnoredNotAnError() async throws {
        let logs = CapturedLogs()
        let valid = TraceContext(traceID: .random(), spanID: .random(), flags: [], state: TraceState()).traceParentHeaderValue
        let malformed = [
            "garbage", "00-\(String(repeating: "0", count: 32))-00f067aa0ba902b7-01",  // the all-zero trace id
            "00-4bf92f3577b34da6a3ce929d0e0e4736-\(String(repeating: "0", count: 16))-01",  // the all-zero span id
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", String(valid.dropLast()), valid + "-extra",
            valid.replacingOccurrences(of: "-", with: "_"), String(repeating: "a", count: 4096),
        ]
        try await withAccounts(logs: logs) { h in
            let token = try await h.youngPerson("Sam").token
            for (index, header) in malformed.enumerated() {
                let (headers, response) = try await Self.post(
                    h, "query Me { me { id } }", token: token,
                    headers: [Self.traceParent: header, RequestIDTests.requestID: "malformed-\(index)"])
                #expect(response["errors"] == nil, "\(header): \(response.json)")
                let answered = try TraceContext(traceParentHeaderValue: try #require(headers[Self.traceResponse]))
                #expect(!header.contains(answered.traceID.description))
                let line = try #require(logs.all.first { $0.metadata["hb.request.id"] == "malformed-\(index)" })
                #expect(line.metadata["trace_id"] == answered.traceID.description)
            }
        }
    }

    @Test func spansCoverParseValidateExecuteAndEachStatementWithoutValues() async throws {
        let tracer = W3CTestTracer.shared
        let incoming = TraceContext(traceID: .random(), spanID: .random(), flags: .sampled, state: TraceState())
        tracer.watch(incoming.traceID)
        let text = "Traced entry text 7f3c written by Sam"
        try await withAccounts { h in
            let sam = try await h.person(.youngPerson, "Sam")
            // A document of this test's own, so that the cache has not seen it: parsed and validated.
            let (_, response) = try await Self.post(
                h, "mutation TracedEntry($i: EntryInput!) { createEntry(input: $i) { id text } }",
                ["i": .object(["date": .string("2026-11-02"), "kind": .string("TEXT"), "text": .string(text)])], token: sam.token,
                headers: [Self.traceParent: incoming.traceParentHeaderValue])
            #expect(response["data"]?["createEntry"]?["text"] == .string(text), "\(response.json)")
            let spans = tracer.spans(of: incoming.traceID)
            let server = try #require(spans.first { $0.kind == .server })
            #expect(server.parentSpanID == incoming.spanID)
            #expect(server.name == "POST /t/{tenant}/graphql", "\(spans.map(\.name))")
            #expect(server.attributes["http.response.status_code"] == "200")
            for phase in ["graphql.parse", "graphql.validate", "graphql.execute"] {
                let span = try #require(spans.first { $0.name == phase }, "\(spans.map(\.name))")
                #expect(span.parentSpanID == server.spanID, "\(phase)")
            }
            let execute = try #require(spans.first { $0.name == "graphql.execute" })
            #expect(execute.attributes["graphql.operation.name"] == "TracedEntry")
            let statements = spans.filter { $0.kind == .client }
            #expect(statements.allSatisfy { $0.attributes["db.system.name"] == "postgresql" && $0.attributes["db.query.text"] != nil })
            let names = statements.map(\.name)
            #expect(names.contains("BEGIN") && names.contains("COMMIT"), "\(names)")
            #expect(names.contains { $0.hasPrefix("INSERT ") }, "\(names)")
            // The statements the resolvers ran are the execution's children.
            #expect(statements.contains { $0.parentSpanID == execute.spanID && $0.name.hasPrefix("INSERT ") }, "\(names)")
            // Never a value: not the entry's text, nor the token, nor the password.
            let recorded = spans.flatMap { [$0.name] + $0.attributes.values + $0.errorDescriptions }
            for secret in [text, sam.token, sam.password] {
                #expect(!recorded.contains { $0.contains(secret) }, "\(secret)")
            }
        }
    }
}
