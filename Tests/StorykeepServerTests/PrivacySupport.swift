import Foundation
import GraphQL
import Logging
import Postgres
import HummingbirdTesting
import Storykeep
import StorykeepTestSupport
import Testing

/// What the privacy module's tests over HTTP share: its operations, a tenant with every module on,
/// and running the server's export builder once.
enum PrivacyHTTP {
    /// Every optional module on, so that every table can hold something of the person, and the
    /// origin of the software passkey authenticator allowed.
    static let tenant: @Sendable (Int, inout TenantFile) -> Void = { index, file in
        file.modules = [.tags, .sharing, .archive, .rewards, .export]
        SoftAuthenticator.allowOrigin(index, &file)
    }

    static let exportFields = "id personId status progress requestedAt readyAt expiresAt byteSize downloadUrl"
    static let requestMyData = "mutation { requestMyData { \(exportFields) } }"
    static let exportPersonData = "mutation($p: ID!) { exportPersonData(personId: $p) { \(exportFields) } }"
    static let dataExport = "query($id: ID!) { dataExport(id: $id) { \(exportFields) } }"
    static let erasePerson = "mutation($p: ID!, $c: String!) { erasePerson(personId: $p, confirm: $c) { personId erasedAt } }"
    static let deleteMyAccount = "mutation($c: String!) { deleteMyAccount(confirm: $c) { personId erasedAt } }"
}

extension AccountsHarness {
    /// One round of the server's data export builder over this harness's tenants, at its clock.
    func buildDataExports() async throws -> (built: Int, failed: Int, expired: Int) {
        let ids = Set(tenants.map(\.id))
        let all = try await TenantStore(pool: app).all().filter { ids.contains($0.id) }
        let clock = clock
        return try await DataExportBuilder(archive: PersonDataArchive(modules: { StorykeepModules.all }), pool: app, now: { clock.now })
            .round(all, logger: Logger(label: "privacy-test"))
    }

    /// Downloads a ZIP from `url` (a tenant-relative link): the response.
    func download(_ url: String) async throws -> TestResponse {
        try await get(url.hasPrefix("/") ? url : "/t/\(tenant.slug)/\(url)", token: nil)
    }

    /// What Python's zipfile makes of `zip`: `testzip()`'s answer ("ok" when every CRC checks) and
    /// the names, one per line.
    static func pythonZip(_ zip: [UInt8]) async throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("privacy-\(UUID()).zip").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(zip))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let script = "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(z.testzip() or 'ok')\nprint('\\n'.join(z.namelist()))"
        let (status, output) = try await runProcess(["python3", "-c", script, path])
        #expect(status == 0, "\(output)")
        return output.split(separator: "\n").map(String.init)
    }
}

/// The entries of a stored ZIP (as ZipWriter writes them: stored, no data descriptors), by name.
func zipEntries(_ zip: [UInt8]) -> [String: [UInt8]] {
    var entries: [String: [UInt8]] = [:]
    var at = 0
    func number(_ offset: Int, _ size: Int) -> Int {
        (0..<size).reduce(0) { $0 | Int(zip[offset + $1]) << (8 * $1) }
    }
    while at + 30 <= zip.count, number(at, 4) == 0x0403_4B50 {
        let size = number(at + 18, 4), nameLength = number(at + 26, 2), extra = number(at + 28, 2)
        let name = String(decoding: zip[(at + 30)..<(at + 30 + nameLength)], as: UTF8.self)
        let start = at + 30 + nameLength + extra
        entries[name] = Array(zip[start..<(start + size)])
        at = start + size
    }
    return entries
}
