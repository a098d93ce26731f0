import Foundation
import Storykeep
import Testing

/// The tenant file's `webhooks` (Sources/Storykeep/Webhooks/WebhookSettings.swift), as
/// `storykeep tenant apply --check` reads it.
@Suite struct WebhookSettingsTests {
    static func file(_ yaml: String) throws(TenantFileError) -> TenantFile {
        try TenantFiles.decode(minimalTenantYAML + "\n" + yaml + "\n", file: "tenants/sample.yaml")
    }

    @Test func aWebhookNamesItsReceiverItsEventsAndTheVariableOfItsSecret() throws {
        #expect(try Self.file("").webhooks == WebhookEndpoints())
        let file = try Self.file(
            """
            webhooks:
              - url: https://duty.example.org/storykeep
                events: [safetyAlert.raised, safetyAlert.escalated]
                secretEnv: DUTY_WEBHOOK_SECRET
              - { url: "http://10.0.0.5:8080/hooks", events: [entry.shared], secretEnv: CMS_HOOK }
            """)
        #expect(file.webhooks.endpoints == [
            Webhook(url: "https://duty.example.org/storykeep", events: [.safetyAlertRaised, .safetyAlertEscalated], secretEnv: "DUTY_WEBHOOK_SECRET"),
            Webhook(url: "http://10.0.0.5:8080/hooks", events: [.entryShared], secretEnv: "CMS_HOOK"),
        ])
    }

    @Test func anUnknownEventAnAddressThatIsNotHTTPOrASecretWrittenInTheFileIsRefusedSayingWhereAndWhy() {
        let hook = { (fields: String) in "webhooks: [{ \(fields) }]" }
        let refused: [(yaml: String, keyPath: String, says: String)] = [
            (hook("url: https://a.example, events: [safetyAlert.raised, alert.raised], secretEnv: S"), "webhooks[0].events[1]",
             "expected one of: safetyAlert.raised, safetyAlert.escalated, entry.shared; found \"alert.raised\""),
            (hook("url: https://a.example, events: [], secretEnv: S"), "webhooks[0].events", "at least one of"),
            (hook("url: ftp://a.example/x, events: [entry.shared], secretEnv: S"), "webhooks[0].url", "an https:// or http:// address"),
            (hook("url: \"javascript:alert(1)\", events: [entry.shared], secretEnv: S"), "webhooks[0].url", "an https:// or http:// address"),
            (hook("url: \"https://\", events: [entry.shared], secretEnv: S"), "webhooks[0].url", "with a host"),
            (hook("url: https://a.example, events: [entry.shared], secretEnv: whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), "webhooks[0].secretEnv",
             "not the secret itself"),
            (hook("url: https://a.example, events: [entry.shared]"), "webhooks[0].secretEnv", "this key is required"),
            (hook("url: https://a.example, events: [entry.shared], secretEnv: S, secret: x"), "webhooks[0].secret", "unknown key"),
            ("webhooks: { url: https://a.example }", "webhooks", "expected a list"),
            ("webhooks: [" + Array(repeating: "{ url: https://a.example, events: [entry.shared], secretEnv: S }", count: 11).joined(separator: ", ") + "]",
             "webhooks", "at most 10 webhooks"),
        ]
        for (yaml, keyPath, says) in refused {
            do {
                _ = try Self.file(yaml)
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.keyPath == keyPath, "\(yaml): \(error)")
                #expect("\(error)".contains(says), "\(yaml): \(error)")
            }
        }
    }
}
