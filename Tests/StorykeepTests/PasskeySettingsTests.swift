import Foundation
import Testing

import Storykeep
@testable import StorykeepAccounts
@testable import StorykeepCore
@testable import StorykeepTenancy

/// Issue 21: `accounts.adultsRequirePasskey`, and the relying party a tenant file makes.
@Suite struct PasskeySettingsTests {
    func tenant(_ yaml: String) throws -> Tenant {
        Tenant(id: UUID(), enabled: true, file: try TenantFiles.decode(minimalTenantYAML + yaml, file: "tenants/sample.yaml"))
    }

    @Test func adultsRequirePasskeyIsOffUnlessTheFileSaysSo() throws {
        #expect(try tenant("").file.accounts.adultsRequirePasskey == false)
        #expect(try tenant("\naccounts:\n  adultsRequirePasskey: true\n").file.accounts.adultsRequirePasskey)
        #expect(throws: TenantFileError.self) { try TenantFiles.decode(minimalTenantYAML + "\naccounts:\n  adultsRequirePassky: true\n", file: "tenants/sample.yaml") }
        #expect(throws: TenantFileError.self) { try TenantFiles.decode(minimalTenantYAML + "\naccounts:\n  adultsRequirePasskey: sometimes\n", file: "tenants/sample.yaml") }
    }

    @Test func theRelyingPartyIsTheFirstHostOrLocalhostWithTheOriginsUnderIt() throws {
        let hosted = RelyingParty(tenant: try tenant("""

            hosts: [agency.example.org, other.example.net]
            cors:
              origins: [https://app.agency.example.org, https://agency.example.org.evil.example, http://localhost:5173]
            """))
        #expect(hosted.id == "agency.example.org" && hosted.name == "Sample Agency")
        #expect(hosted.origins == ["https://app.agency.example.org", "https://agency.example.org"])
        let local = RelyingParty(tenant: try tenant("\ncors:\n  origins: [http://localhost:5173, https://app.example.org]\n"))
        #expect(local.id == "localhost" && local.origins == ["http://localhost:5173"])
    }
}
