import Foundation
import Postgres
import Testing

@testable import Storykeep

/// A position of the journal's list with any fields at all, to sign what no real position
/// would hold and see the journal's position refuse it after the signature checks out.
private struct AnyEntryFields: CursorPosition {
    var fields: [String]
    static var list: String { EntryPosition.list }
    init(_ fields: [String]) { self.fields = fields }
    init?(fields: [Substring]) { self.fields = fields.map(String.init) }
}

/// The one cursor codec (Sources/Storykeep/Core/Cursor.swift): positions signed with the
/// tenant's key, bound to their list, checked for values PostgreSQL can hold.
@Suite struct CursorTests {
    let key = CursorKey(bytes: Array(repeating: 7, count: 32))
    var cursors: Cursors { Cursors(key: key) }
    let entry = EntryPosition(
        day: PostgresDate(year: 2026, month: 11, day: 24), createdAt: PostgresTimestamp(microsecondsSince2000: 817_000_000_123_456)!,
        id: UUID(uuidString: "0b6c5a3e-2f4d-4c1b-9a8e-1d2c3b4a5f60")!)

    @Test func aPositionComesBackFromItsCursor() throws {
        let cursor = cursors.cursor(entry)
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "base64url, no padding")
        #expect(try cursors.position(after: cursor, of: EntryPosition.self) == entry)
        #expect(try cursors.position(after: nil, of: EntryPosition.self) == nil)
        // Years before 1 AD and the ends of PostgreSQL's ranges travel too.
        let edges = [
            EntryPosition(
                day: PostgresDate(daysSince2000: PostgresDate.validDaysSince2000.lowerBound),
                createdAt: PostgresTimestamp(microsecondsSince2000: PostgresTimestamp.validRange.lowerBound)!, id: entry.id),
            EntryPosition(
                day: PostgresDate(daysSince2000: PostgresDate.validDaysSince2000.upperBound - 1),
                createdAt: PostgresTimestamp(microsecondsSince2000: PostgresTimestamp.validRange.upperBound - 1)!, id: entry.id),
        ]
        for edge in edges { #expect(try cursors.position(after: cursors.cursor(edge), of: EntryPosition.self) == edge) }
        let archived = ArchivePosition(moment: entry.createdAt, id: entry.id)
        #expect(try cursors.position(after: cursors.cursor(archived), of: ArchivePosition.self) == archived)
        let person = PersonPosition(moment: entry.createdAt, id: entry.id)
        #expect(try cursors.position(after: cursors.cursor(person), of: PersonPosition.self) == person)
        let notification = NotificationPosition(moment: entry.createdAt, id: entry.id)
        #expect(try cursors.position(after: cursors.cursor(notification), of: NotificationPosition.self) == notification)
        let pastNewest = NotificationPosition.pastNewest
        #expect(try cursors.position(after: cursors.cursor(pastNewest), of: NotificationPosition.self) == pastNewest)
    }

    /// The cursor's bytes as documented (`<list>|<field>|…`, then 16 bytes of HMAC-SHA-256 under
    /// the key, in base64url): cursors that apps hold stay valid when the code writing them changes.
    @Test func aCursorIsItsListItsFieldsAndItsMACInBase64URL() {
        let payload = Array("entries|\(entry.day.daysSince2000)|817000000123456|0b6c5a3e-2f4d-4c1b-9a8e-1d2c3b4a5f60".utf8)
        let mac = Crypto.hmacSHA256(key: Array(repeating: 7, count: 32), payload).prefix(16)
        #expect(cursors.cursor(entry) == Crypto.base64URL(payload + mac))
        #expect(Crypto.base64URL(payload + mac).hasPrefix("ZW50cmllc3w"), "\"entries|\" in base64url")
    }

    @Test func aChangedCursorIsRefusedWhateverChanged() {
        let cursor = Array(cursors.cursor(entry))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for index in cursor.indices {
            var changed = cursor
            changed[index] = alphabet[(alphabet.firstIndex(of: cursor[index])! + 1) % alphabet.count]
            expectBadCursor(String(changed), of: EntryPosition.self, key: key)
        }
        expectBadCursor(String(cursor.dropLast()), of: EntryPosition.self, key: key)
        expectBadCursor(String(cursor.dropFirst()), of: EntryPosition.self, key: key)
        expectBadCursor(String(cursor) + "A", of: EntryPosition.self, key: key)
        expectBadCursor(String(cursor) + "=", of: EntryPosition.self, key: key)
    }

    @Test func aCursorHoldsOnlyForItsListAndItsTenant() throws {
        expectBadCursor(cursors.cursor(entry), of: ArchivePosition.self, key: key)
        expectBadCursor(cursors.cursor(entry), of: PersonPosition.self, key: key)
        expectBadCursor(cursors.cursor(ArchivePosition(moment: entry.createdAt, id: entry.id)), of: EntryPosition.self, key: key)
        expectBadCursor(cursors.cursor(PersonPosition(moment: entry.createdAt, id: entry.id)), of: ArchivePosition.self, key: key)
        expectBadCursor(cursors.cursor(PersonPosition(moment: entry.createdAt, id: entry.id)), of: NotificationPosition.self, key: key)
        expectBadCursor(cursors.cursor(NotificationPosition(moment: entry.createdAt, id: entry.id)), of: ArchivePosition.self, key: key)
        // Another tenant's key: the same position, refused.
        expectBadCursor(Cursors(key: CursorKey(bytes: Array(repeating: 8, count: 32))).cursor(entry), of: EntryPosition.self, key: key)
    }

    @Test func unsignedCursorsAsTheyWereBeforeAreRefused() {
        // What the API gave before cursors were signed, with the values the issue forged.
        let forged = [
            "e|2026-11-24|9223372036854775807|\(entry.id.uuidString)", "e|2026-11-24|-9223372036854775808|\(entry.id.uuidString)",
            "e|2026-11-24|1795000000000000|\(entry.id.uuidString)",
        ]
        for text in forged { expectBadCursor(Crypto.base64URL(Array(text.utf8)), of: EntryPosition.self, key: key) }
        expectBadCursor(Crypto.base64URL(Array("a|99999999999999999999|\(entry.id.uuidString)".utf8)), of: ArchivePosition.self, key: key)
        expectBadCursor(Data("p:-1:\(entry.id.uuidString)".utf8).base64EncodedString(), of: PersonPosition.self, key: key)
        for junk in ["", "x", "bm90IGEgY3Vyc29y", "!!!!", String(repeating: "A", count: 10_000), "é", "\u{0}"] {
            expectBadCursor(junk, of: EntryPosition.self, key: key)
        }
    }

    @Test func signedValuesOutsidePostgresRangesAreStillRefused() throws {
        let id = entry.id.uuidString
        let invalid: [[String]] = [
            ["\(PostgresDate.validDaysSince2000.upperBound)", "0", id],
            ["\(PostgresDate.validDaysSince2000.lowerBound - 1)", "0", id],
            ["\(Int.max)", "0", id], ["\(Int.min)", "0", id], ["99999999999999999999999", "0", id],
            ["0", "\(PostgresTimestamp.validRange.upperBound)", id], ["0", "\(PostgresTimestamp.validRange.lowerBound - 1)", id],
            ["0", "\(Int64.max)", id], ["0", "\(Int64.min)", id], ["0", "9223372036854775808", id], ["0", "1e6", id],
            ["0", "0", "not-a-uuid"], ["0", "0"], ["0", "0", id, "extra"], ["", "", ""],
        ]
        for fields in invalid {
            expectBadCursor(cursors.cursor(AnyEntryFields(fields)), of: EntryPosition.self, key: key)
        }
        #expect(try cursors.position(after: cursors.cursor(AnyEntryFields(["0", "0", id])), of: EntryPosition.self) != nil)
    }

    @Test func hmacIsRFC4231() {
        // RFC 4231, test case 2.
        let mac = Crypto.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8))
        #expect(Crypto.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        // Test case 6: a key longer than SHA-256's block is hashed first.
        let long = HMACKey([UInt8](repeating: 0xaa, count: 131))
        #expect(
            Crypto.hex(long.mac(Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        // Test case 3: a key of 20 bytes (padded to the block), 50 bytes of data; the same key
        // made ready once signs several messages alike.
        let ready = HMACKey([UInt8](repeating: 0xaa, count: 20))
        for _ in 0..<2 {
            #expect(
                Crypto.hex(ready.mac([UInt8](repeating: 0xdd, count: 50)))
                    == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
        }
    }

    @Test func base64URLDecodesWhatItEncodes() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }
            #expect(Crypto.bytes(base64URL: Crypto.base64URL(bytes)) == bytes)
        }
        #expect(Crypto.bytes(base64URL: "A") == nil, "one digit holds no byte")
        #expect(Crypto.bytes(base64URL: "Zm9v+") == nil)
        #expect(Crypto.bytes(base64URL: "Zm9v/w") == nil)
        #expect(Crypto.bytes(base64URL: "Zg==") == nil)
        // One text per byte string: "Zg" is "f"; "Zh" holds the same byte and stray low bits.
        #expect(Crypto.bytes(base64URL: "Zg") == Array("f".utf8))
        #expect(Crypto.bytes(base64URL: "Zh") == nil)
        #expect(Crypto.bytes(base64URL: "Zm8") == Array("fo".utf8))
        #expect(Crypto.bytes(base64URL: "Zm9") == nil)
    }

    @Test func keysAreNeverPrinted() {
        #expect("\(key)" == "CursorKey(32 bytes)")
        #expect(!"\(Tenant(id: UUID(), enabled: true, file: try! TenantFiles.decode(minimalTenantFile, file: "t"), cursorKey: key))".contains("7, 7"))
    }
}

private let minimalTenantFile = """
    slug: t
    displayName: T
    timeZone: Europe/London
    termsVersion: "1"
    modules: []
    moodIcons: [{ emoji: "🙂", label: Okay }]
    """
