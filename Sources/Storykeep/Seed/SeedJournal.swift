import Foundation
import Postgres
import Storykeep
import StorykeepCore

/// Rows in COPY's text format (tab-separated fields, `\N` for NULL, a newline per row), built
/// as bytes.
struct CopyText {
    var bytes: [UInt8] = []
    var rows = 0

    mutating func text(_ value: String?) {
        PostgresCopyWriter.appendField(value, to: &bytes)
        bytes.append(9)
    }

    /// Text known to need no escaping (ids, dates, numbers, names of our own lists).
    mutating func plain(_ value: String) {
        bytes += value.utf8
        bytes.append(9)
    }

    mutating func null() { bytes += [92, UInt8(ascii: "N"), 9] }

    mutating func uuid(_ id: UUID) { plain(id.uuidString.lowercased()) }

    mutating func int(_ value: Int) { plain(String(value)) }

    mutating func date(_ day: PostgresDate) { plain(day.description) }

    /// A moment, in microseconds since 1970, in UTC.
    mutating func timestamp(micros: Int64) {
        let seconds = Int(micros.quotientAndRemainder(dividingBy: 1_000_000).quotient)
        let fraction = Int(micros % 1_000_000)
        let (days, second) = (seconds - 946_684_800).quotientAndRemainder(dividingBy: 86_400)
        let day = PostgresDate(daysSince2000: days)
        plain("\(day) \(pad2(second / 3600)):\(pad2(second / 60 % 60)):\(pad2(second % 60)).\(pad6(fraction))+00")
    }

    mutating func timestamp(micros: Int64?) {
        if let micros { timestamp(micros: micros) } else { null() }
    }

    /// A bytea in COPY text: `\\x` and hex digits.
    mutating func bytea(_ value: [UInt8]) {
        bytes.reserveCapacity(bytes.count + 2 * value.count + 4)
        bytes += [92, 92, UInt8(ascii: "x")]
        for byte in value {
            bytes.append(Self.hex[Int(byte >> 4)])
            bytes.append(Self.hex[Int(byte & 15)])
        }
        bytes.append(9)
    }

    /// Ends the row (replacing the last field's tab with a newline).
    mutating func endRow() {
        bytes[bytes.count - 1] = 10
        rows += 1
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private func pad2(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    private func pad6(_ v: Int) -> String {
        let s = String(v)
        return String(repeating: "0", count: 6 - s.count) + s
    }

    /// Sends the rows to `COPY ... FROM STDIN`.
    func copy(_ sql: String, on database: some PostgresQueryable) async throws {
        guard rows > 0 else { return }
        let bytes = self.bytes
        _ = try await database.copyIn(sql) { writer in try await writer.write(rows: bytes) }
    }
}

/// What was made, for the summary.
public struct SeedCounts: Sendable, Hashable {
    public var tags = 0
    public var entries = 0
    public var entriesByKind: [EntryKind: Int] = [:]
    public var archivedEntries = 0
    public var entryTags = 0
    public var media = 0
    public var mediaBytes = 0

    mutating func add(_ other: SeedCounts) {
        tags += other.tags
        entries += other.entries
        entriesByKind.merge(other.entriesByKind, uniquingKeysWith: +)
        archivedEntries += other.archivedEntries
        entryTags += other.entryTags
        media += other.media
        mediaBytes += other.mediaBytes
    }
}

/// The journal rows of a batch of young people, in the columns of the seed's temporary tables.
struct SeedJournalRows {
    var tags = CopyText()
    var media = CopyText()
    var entries = CopyText()
    var entryTags = CopyText()
    var entryMedia = CopyText()
    var counts = SeedCounts()

    /// SHA-256 of the rows (which hold no tenant id): the same seed gives the same digest.
    var digest: [UInt8] {
        Crypto.sha256([tags, media, entries, entryTags, entryMedia].flatMap { Crypto.sha256($0.bytes) })
    }

    /// Appends the journal of `person`, of the tenant `tenant`, from its own random stream.
    mutating func add(_ person: SeedPerson, of tenant: SeedTenant, options: SeedOptions) {
        var r = SeedRandom(seed: options.seed, stream: [3, UInt64(tenant.index), UInt64(person.index)])
        let firstDay = options.until.daysSince2000 - options.days + 1
        let startMicros = Self.micros(day: firstDay, second: 8 * 3600)
        let labels = tenant.file.moodIcons.map(\.label)
        let prompts = tenant.file.prompts.map(\.text.english)
        let language = r.chance(0.75) ? SeedText.english : r.pick(SeedText.languages.dropFirst())

        // Their tags: some of the agency's suggestions and a few of their own.
        var names: [String] = []
        var suggested = tenant.file.suggestedTags.map(\.english)
        for i in 0..<suggested.count { suggested.swapAt(i, r.int(i..<suggested.count)) }
        names += suggested.prefix(r.int(min(3, suggested.count)...min(8, suggested.count)))
        for _ in 0..<r.int(0...2) {
            let name = r.pick(SeedText.personalTags)
            if !names.contains(name) { names.append(name) }
        }
        let tagIDs = names.map { _ in r.uuid() }
        for (id, name) in zip(tagIDs, names) {
            tags.uuid(id); tags.uuid(person.id); tags.plain(name); tags.timestamp(micros: startMicros)
            tags.endRow()
        }
        counts.tags += names.count

        let n = person.entryCount
        let moodCount = min(Int((Double(n) * 0.3).rounded()), options.days)
        let moodDays = r.sample(moodCount, of: options.days)
        let otherKinds: [EntryKind] = [.text, .image, .drawing, .audio, .video]
        let otherWeights = [60.0, 12, 10, 10, 8]
        for i in 0..<n {
            let kind = i < moodCount ? EntryKind.mood : otherKinds[r.weighted(otherWeights)]
            let dayNumber = firstDay + (i < moodCount ? moodDays[i] : r.int(0..<options.days))
            var created = Self.micros(day: dayNumber, second: r.int(7 * 3600..<(24 * 3600 - 1))) + Int64(r.int(0..<1_000_000))
            if kind != .mood && r.chance(0.1) { created += Int64(r.int(1...3)) * 86_400_000_000 }
            let updated = r.chance(0.05) ? created + Int64(r.int(60...172_800)) * 1_000_000 : created
            let archived: Int64? = kind != .mood && r.chance(0.01) ? created + Int64(r.int(3600...2_592_000)) * 1_000_000 : nil

            var text: String?
            switch kind {
            case .text:
                let lang = r.chance(0.85) ? language : SeedText.english
                var sentences = (0..<r.int(1...5)).map { _ in SeedText.sentence(r.pick(lang.sentences), &r) }
                if sentences.count > 2 && r.chance(0.15) { sentences[1] = "\n\n" + sentences[1] }
                text = sentences.joined(separator: " ").replacingOccurrences(of: " \n\n", with: "\n\n")
            case .mood:
                if r.chance(0.4) { text = SeedText.sentence(r.pick(language.sentences), &r) }
            default:
                if r.chance(0.5) { text = SeedText.sentence(r.pick(language.captions), &r) }
            }
            let mood = kind == .mood || r.chance(0.35) ? r.pick(labels) : nil
            let background = r.chance(0.3) ? r.pick(SeedText.backgrounds) : nil
            let suggestion = !prompts.isEmpty && r.chance(0.08) ? r.pick(prompts) : nil
            let tagCount = min(names.count, [0, 1, 2, 3][r.weighted([40, 35, 18, 7])])
            let chosen = r.sample(tagCount, of: names.count)
            let id = r.uuid()

            entries.uuid(id); entries.uuid(person.id); entries.date(PostgresDate(daysSince2000: dayNumber))
            entries.plain(kind.rawValue); entries.text(text); entries.text(mood); entries.text(background)
            entries.text(suggestion); entries.text(chosen.map { names[$0] }.sorted().joined(separator: " "))
            entries.timestamp(micros: created); entries.timestamp(micros: updated); entries.timestamp(micros: archived)
            entries.endRow()
            counts.entries += 1
            counts.entriesByKind[kind, default: 0] += 1
            if archived != nil { counts.archivedEntries += 1 }
            for index in chosen {
                entryTags.uuid(id); entryTags.uuid(tagIDs[index]); entryTags.uuid(person.id)
                entryTags.endRow()
            }
            counts.entryTags += chosen.count

            var files = 0
            switch kind {
            case .image, .drawing, .audio, .video: files = r.chance(0.85) ? 1 : 2
            case .text: files = r.chance(0.03) ? 1 : 0
            case .mood: files = 0
            }
            for position in 0..<files {
                let bytes: [UInt8]
                switch kind {
                case .drawing: bytes = SeedMedia.drawing(&r)
                case .audio: bytes = SeedMedia.recording(&r)
                case .video: bytes = SeedMedia.clip(&r)
                default: bytes = SeedMedia.photo(&r)
                }
                let mediaID = r.uuid()
                media.uuid(mediaID); media.uuid(person.id); media.plain(MediaSniffer.sniff(bytes) ?? "?")
                media.bytea(bytes); media.timestamp(micros: created - 60_000_000 + Int64(position))
                media.endRow()
                entryMedia.uuid(id); entryMedia.uuid(mediaID); entryMedia.uuid(person.id); entryMedia.int(position)
                entryMedia.endRow()
                counts.media += 1
                counts.mediaBytes += bytes.count
            }
        }
    }

    /// Microseconds since 1970 of `second` seconds into the day `daysSince2000`, in UTC.
    static func micros(day daysSince2000: Int, second: Int) -> Int64 {
        Int64(946_684_800 + daysSince2000 * 86_400 + second) * 1_000_000
    }
}
