import Foundation
import Postgres
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepJournals

@Suite("Journal: media recognised by content, limited in size, stored in PostgreSQL")
struct JournalMediaTests {
    @Test func formatsAreRecognisedByTheirBytes() {
        let padding = [UInt8](repeating: 0, count: 20)
        let cases: [([UInt8], String?, String?)] = [
            (SampleMedia.png, nil, "image/png"),
            (SampleMedia.jpeg, "image/png", "image/jpeg"),
            (Array("GIF89a".utf8) + padding, nil, "image/gif"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8) + padding, nil, "image/webp"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8) + padding, nil, "audio/wav"),
            ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + padding, nil, "image/heic"),
            (SampleMedia.m4a, nil, "audio/mp4"),
            (SampleMedia.mp4, nil, "video/mp4"),
            (SampleMedia.mp4, "audio/mp4", "audio/mp4"),
            ([0, 0, 0, 0x14] + Array("ftypqt  ".utf8) + padding, "video/quicktime", "video/quicktime"),
            ([0x1A, 0x45, 0xDF, 0xA3] + padding, "audio/webm;codecs=opus", "audio/webm"),
            ([0x1A, 0x45, 0xDF, 0xA3] + padding, nil, "video/webm"),
            (Array("OggS".utf8) + padding, nil, "audio/ogg"),
            (Array("OggS".utf8) + padding, "video/ogg", "video/ogg"),
            (Array("fLaC".utf8) + padding, nil, "audio/flac"),
            (Array("ID3".utf8) + padding, nil, "audio/mpeg"),
            ([0xFF, 0xFB, 0x90, 0x44] + padding, nil, "audio/mpeg"),
            ([0xFF, 0xF1, 0x50, 0x80] + padding, nil, "audio/aac"),
            // Refused whatever they claim to be: executables, scripts, markup, SVG, PDF, archives.
            (SampleMedia.elf, "image/png", nil),
            (SampleMedia.exe, "image/png", nil),
            (Array("#!/bin/sh\nrm -rf /\n".utf8), "audio/mpeg", nil),
            (Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8), "image/svg+xml", nil),
            (Array("<!DOCTYPE html><html>".utf8), "image/png", nil),
            (Array("%PDF-1.7".utf8) + padding, "image/png", nil),
            ([0x50, 0x4B, 0x03, 0x04] + padding, "video/mp4", nil),
            ([0, 0, 0, 0x18] + Array("ftypXXXX".utf8) + padding, "video/mp4", nil),
            ([0x89, 0x50, 0x4E], "image/png", nil),
            ([], "image/png", nil),
        ]
        for (bytes, declared, expected) in cases {
            #expect(MediaSniffer.sniff(bytes, declared: declared) == expected, "\(bytes.prefix(12)) as \(declared ?? "nothing")")
        }
    }

    @Test func theDatabaseAcceptsExactlyTheRecognisedTypes() async throws {
        try await JournalDatabase.run { db in
            let definition = try await db.owner.transaction { tx throws in
                try await tx.query("select pg_get_constraintdef(oid) from pg_constraint where conname = 'media_content_type'")[0]
                    .decode(String.self, at: 0)
            }
            let allowed = Set(definition.matches(of: /'([a-z]+\/[a-z0-9.+-]+)'/).map { String($0.output.1) })
            #expect(allowed == MediaSniffer.contentTypes)
        }
    }

    @Test func anUploadIsStoredWithItsSizeAndHashAndReadInRanges() async throws {
        try await JournalDatabase.runAsSam { tx throws in
            // A few MB of "video", more than one TOAST chunk.
            var bytes = SampleMedia.mp4
            bytes += (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
            let media = MediaStore(tx)
            let stored = try await media.upload(bytes, declaredType: "video/mp4", maxBytes: UploadPolicy().maxBytes)
            #expect(stored.contentType == "video/mp4" && stored.byteSize == bytes.count)
            #expect(stored.sha256 == Crypto.sha256(bytes))
            #expect(try await media.media(ids: [stored.id, UUID()]) == [stored])
            #expect(try await media.bytes(id: stored.id) == bytes)
            #expect(try await media.bytes(id: stored.id, offset: 1_999_990, length: 20) == Array(bytes[1_999_990..<2_000_010]))
            #expect(try await media.bytes(id: stored.id, offset: bytes.count - 5, length: 100) == Array(bytes.suffix(5)))
            #expect(try await media.bytes(id: stored.id, offset: 2_500_000) == Array(bytes[2_500_000...]))
            #expect(try await media.bytes(id: UUID()) == nil)
        }
    }

    @Test func tooLargeEmptyOrDisguisedFilesAreRefusedAndNothingIsStored() async throws {
        try await JournalDatabase.run { db in
            try await db.asSam { tx throws in
                let media = MediaStore(tx)
                let limit = UploadPolicy().maxBytes
                let tooLarge = SampleMedia.png + [UInt8](repeating: 0, count: 26 * 1_048_576 - SampleMedia.png.count)
                await expectBadInput("file") { _ = try await media.upload(tooLarge, declaredType: "image/png", maxBytes: limit) }
                await expectBadInput("file") { _ = try await media.upload(SampleMedia.png, declaredType: "image/png", maxBytes: 10) }
                await expectBadInput("file") { _ = try await media.upload([], declaredType: "image/png", maxBytes: limit) }
                await expectBadInput("file") { _ = try await media.upload(SampleMedia.elf, declaredType: "image/png", maxBytes: limit) }
                await expectBadInput("file") { _ = try await media.upload(SampleMedia.exe, declaredType: "image/jpeg", maxBytes: limit) }
                #expect(try await tx.query("select count(*) from media")[0].decode(Int.self, at: 0) == 0)
                // A file exactly at the limit is fine; the type stored is the one recognised.
                let atLimit = SampleMedia.jpeg + [UInt8](repeating: 1, count: 1000 - SampleMedia.jpeg.count)
                #expect(try await media.upload(atLimit, declaredType: "image/png", maxBytes: 1000).contentType == "image/jpeg")
            }
            // The database refuses a type outside the list, however it is written.
            let outcome = await db.attempt(
                db.tenant.samContext.settings,
                "insert into media (tenant_id, owner_id, content_type, bytes) values (current_tenant_id(), current_person_id(), 'application/x-msdownload', '\\x4d5a')")
            #expect(outcome == .failed("23514"))
        }
    }
}
