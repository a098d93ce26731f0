import AsyncHTTPClient
import Foundation
import StorykeepCore
import StorykeepTestSupport
import Testing

/// The files' disk fills up (issue 18). Files are stored in PostgreSQL (`media.bytes`, bytea, out
/// of line in the table's TOAST table), so their disk is the tablespace the `media` table lives
/// in: here a small tmpfs of its own, `media` and its TOAST moved there as the superuser, on a
/// database of the test's own (``TestCluster``), everything else on the cluster's own disk.
@Suite struct MediaDiskFullTests {
    /// 512 KiB a file on a 4 MiB disk: about seven fit.
    static let fileBytes = 512 << 10
    static let diskMegabytes = 4

    /// Files are uploaded until one does not fit: that upload, and a createEntry carrying a file,
    /// get STORAGE_FULL with a plain message and leave nothing behind, while what needs no new
    /// room on that disk goes on working: an entry without a file (with a tag, and with a file
    /// stored before), the journal, a stored file's bytes, logging in, `/health/ready`. Once the
    /// disk is made bigger, files are stored again. The database holds exactly the acknowledged
    /// files, each whole.
    @Test func uploadsFailWithStorageFullAndNothingElseBreaksWhenTheFilesDiskIsFull() async throws {
        let cluster = try await TestCluster()
        let disk: SmallDisk
        do {
            disk = try await SmallDisk(megabytes: Self.diskMegabytes)
        } catch {
            cluster.stop()
            throw error
        }
        // PostgreSQL first: it holds the disk's files open.
        defer {
            cluster.stop()
            disk.remove()
        }
        _ = try await cluster.psql("CREATE TABLESPACE storykeep_media LOCATION '\(disk.path)'")
        _ = try await cluster.psql("ALTER TABLE media SET TABLESPACE storykeep_media")
        let placed = try await cluster.rows(
            """
            SELECT c.relkind, t.spcname FROM pg_class c JOIN pg_tablespace t ON t.oid = c.reltablespace
            WHERE c.oid IN ('media'::regclass, (SELECT reltoastrelid FROM pg_class WHERE oid = 'media'::regclass))
            """)
        #expect(placed.map { $0.joined(separator: " ") }.sorted() == ["r storykeep_media", "t storykeep_media"], "media and its TOAST are on the small disk")

        let server = try await ServeProcess(environment: cluster.environment)
        defer { server.stop() }
        let slug = TestCluster.tenant
        let (username, password) = TestCluster.youngPerson
        let token = try await server.login(slug: slug, username, password)
        let tag = try #require(
            try await server.graphQL(slug: slug, token: token, #"mutation { createTag(name: "music") { id } }"#).data("createTag", "id") as? String)

        // Files until one does not fit.
        var stored: [(id: String, sha256: String)] = []
        var refusal: ServedAnswer?
        for n in 1...(Self.diskMegabytes * 4) where refusal == nil {
            let file = UploadLoad.file(bytes: Self.fileBytes, mark: "disk \(n)")
            let answer = try await server.graphQL(slug: slug, token: token, UploadLoad.upload, ["file": NSNull()], files: [("variables.file", file)])
            if let id = answer.data("uploadMedia", "id") as? String {
                stored.append((id, Crypto.hex(Crypto.sha256(file))))
            } else {
                refusal = answer
            }
        }
        let full = try #require(refusal, "the disk filled up")
        #expect(stored.count >= 2, "files were stored until the disk was full")
        #expect(full.errorCode == "STORAGE_FULL", "\(full)")
        let message = (full.json["errors"] as? [[String: Any]])?.first?["message"] as? String ?? ""
        #expect(message.contains("no room") && !message.contains(disk.path) && !message.contains("pg_tblspc"), "a plain message: \(message)")

        // An entry carrying a file is refused whole: no entry, no file.
        let entry = "mutation($i: EntryInput!, $f: [Upload!]) { createEntry(input: $i, files: $f) { id text tags { name } media { id } } }"
        let withFile = try await server.graphQL(
            slug: slug, token: token, entry, ["i": ["date": "2026-11-20", "kind": "TEXT", "text": "with a file"], "f": [NSNull()]],
            files: [("variables.f.0", UploadLoad.file(bytes: Self.fileBytes, mark: "entry file"))])
        #expect(withFile.errorCode == "STORAGE_FULL", "\(withFile)")

        // What needs no new room there works: an entry with a tag and a file stored before, the
        // journal, the file's bytes, logging in, readiness.
        let written = try await server.graphQL(
            slug: slug, token: token, entry, ["i": ["date": "2026-11-21", "kind": "TEXT", "text": "no room for files today", "tagIds": [tag], "mediaIds": [stored[0].id]]])
        #expect(written.errors == nil, "\(written)")
        #expect((written.data("createEntry", "media") as? [[String: Any]])?.compactMap { $0["id"] as? String } == [stored[0].id])
        let journal = try await server.graphQL(slug: slug, token: token, "{ entries(first: 10) { edges { node { text tags { name } } } } }")
        #expect(journal.texts == ["no room for files today"], "the entry with a file is not there: \(journal)")
        let bytes = try await Self.fetch("\(server.baseURL)/t/\(slug)/media/\(stored[0].id)", token: token)
        #expect(bytes.status == 200 && Crypto.hex(Crypto.sha256(bytes.body)) == stored[0].sha256, "a stored file reads back whole")
        #expect(try await server.login(slug: slug, username, password) != "", "logging in works")
        #expect(await server.readiness() == 200)

        // Room made: files are stored again.
        try await disk.grow(megabytes: 64)
        let file = UploadLoad.file(bytes: Self.fileBytes, mark: "after")
        let again = try await server.graphQL(slug: slug, token: token, UploadLoad.upload, ["file": NSNull()], files: [("variables.file", file)])
        let id = try #require(again.data("uploadMedia", "id") as? String, "an upload works once there is room: \(again)")
        stored.append((id, Crypto.hex(Crypto.sha256(file))))

        // The database holds the acknowledged files, whole, and nothing of the refused ones.
        let rows = try await cluster.rows("SELECT id, byte_size, encode(sha256, 'hex') FROM media ORDER BY created_at")
        #expect(rows == stored.map { [$0.id, "\(Self.fileBytes)", $0.sha256] }, "exactly the acknowledged files, whole")
        #expect(try await cluster.psql("SELECT count(*) FROM entries WHERE body = 'with a file'") == "0")
        print(
            """
            disk full figures: \(stored.count - 1) files of \(Self.fileBytes >> 10) KiB stored on a \(Self.diskMegabytes) MiB tmpfs \
            before one did not fit: \(full.errors ?? "")
            """)
    }

    /// The status and body of `GET url` with the bearer token.
    static func fetch(_ url: String, token: String) async throws -> (status: Int, body: [UInt8]) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), Array(body.readableBytesView))
    }
}

/// A tmpfs of `megabytes`, owned by the postgres user (a tablespace's folder must be its), under
/// /tmp, until ``remove()``. Mounting needs root (or CAP_SYS_ADMIN): without it the test fails
/// here, saying so.
private struct SmallDisk {
    let path: String

    init(megabytes: Int) async throws {
        path = try #require(
            await Shell.run(["mktemp", "-d", "/tmp/storykeep-media-disk.XXXXXX"]).output.split(separator: "\n").first.map(String.init))
        let (status, output) = await Shell.run([
            "sh", "-c", "mount -t tmpfs -o size=\(megabytes)m,mode=0700,uid=$(id -u postgres),gid=$(id -g postgres) storykeep-media \"$0\"", path,
        ])
        guard status == 0 else {
            Shell.runNow(["rmdir", path])
            throw Shell.Failed(command: "mount -t tmpfs (as root, for the files' small disk)", output: output)
        }
    }

    /// Makes it `megabytes` big, as an operator makes room.
    func grow(megabytes: Int) async throws {
        let (status, output) = await Shell.run(["mount", "-o", "remount,size=\(megabytes)m", path])
        try #require(status == 0, "remount: \(output)")
    }

    /// Unmounts it and removes its folder.
    func remove() {
        Shell.runNow(["sh", "-c", "umount \"$0\" || umount -l \"$0\"; rmdir \"$0\"", path])
    }
}
