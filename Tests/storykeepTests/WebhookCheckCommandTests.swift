import Testing

/// `storykeep tenant apply --check` on a tenant file's `webhooks`, as an agency's IT team runs it.
@Suite struct WebhookCheckCommandTests {
    /// What `--check` prints for a tenant file with `webhooks` (YAML, indented as a top-level key).
    func check(_ webhooks: String) async throws -> (Storykeep.Result, slug: String) {
        let (directory, slug) = try TenantCommandTests().tenantDirectory(extra: "webhooks:\n" + webhooks)
        return (try await Storykeep.run("tenant", "apply", "--check", directory), slug)
    }

    @Test func checkRefusesAnUnknownEventAndAnAddressThatIsNotHTTPSayingWhere() async throws {
        let (accepted, _) = try await check(#"  - { url: "https://duty.example.org/hooks", events: [safetyAlert.raised, entry.shared], secretEnv: DUTY_SECRET }"#)
        #expect(accepted.status == 0, "\(accepted.errors)")

        let (badURL, slug) = try await check(#"  - { url: "ftp://duty.example.org/hooks", events: [safetyAlert.raised], secretEnv: DUTY_SECRET }"#)
        #expect(badURL.status != 0)
        #expect(badURL.errors.contains("\(slug).yaml: webhooks[0].url: expected an https:// or http:// address"), "\(badURL.errors)")

        let (badEvent, _) = try await check(#"  - { url: "https://duty.example.org/hooks", events: [safetyAlert.resolved], secretEnv: DUTY_SECRET }"#)
        #expect(badEvent.status != 0)
        #expect(
            badEvent.errors.contains(
                #"webhooks[0].events[0]: expected one of: safetyAlert.raised, safetyAlert.escalated, entry.shared; found "safetyAlert.resolved""#),
            "\(badEvent.errors)")
    }
}
