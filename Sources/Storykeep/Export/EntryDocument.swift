import Foundation
import StorykeepCore

/// `ExportEntry.document`: an entry as a self-contained HTML page for a case record
/// (Templates/entry.html): the agency, the young person, their words as written, pictures inline,
/// recordings and videos as links, whom it was shared with and when. Every value is escaped
/// (``DocumentTemplate``), and the page's Content-Security-Policy lets nothing in it run.
enum EntryDocument {
    /// The template, read once from the module's resources.
    static let template: DocumentTemplate = {
        guard let url = Bundle.module.url(forResource: "entry", withExtension: "html", subdirectory: "Templates"),
            let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("Templates/entry.html is missing from the export module's resources") }
        do {
            return try DocumentTemplate(text)
        } catch {
            fatalError("Templates/entry.html: \(error)")
        }
    }()

    /// The page of `entry` for `agency`, with the bytes of its pictures by file id.
    static func html(_ entry: ExportEntry, agency: String, images: [UUID: [UInt8]]) -> String {
        typealias Value = DocumentTemplate.Value
        let title = "\(entry.youngPerson.displayName): journal entry of \(entry.day)"
        let pictures: [[String: Value]] = entry.media.compactMap { file in
            images[file.id].map { ["contentType": .text(file.contentType), "base64": .text(Data($0).base64EncodedString())] }
        }
        let links: [[String: Value]] = entry.media.filter { images[$0.id] == nil }.map { file in
            ["url": .text(file.url), "contentType": .text(file.contentType), "byteSize": .text(String(file.byteSize)),
             "label": .text(file.contentType.hasPrefix("video/") ? "Video" : file.contentType.hasPrefix("audio/") ? "Recording" : "File")]
        }
        let shares: [[String: Value]] = entry.sharedWith.map { share in
            ["name": .text(share.person.displayName), "relationship": .text(share.relationship.lowercased().replacingOccurrences(of: "_", with: " ")),
             "sharedAt": .text(DateTimeScalar.string(share.sharedAt)), "message": share.message.map(Value.text) ?? .flag(false)]
        }
        return template.render([
            "title": .text(title), "agency": .text(agency), "id": .text(entry.id.lowercased), "revision": .text(entry.revision),
            "youngPerson": .text(entry.youngPerson.displayName),
            "caseReference": entry.youngPerson.externalRef.map(Value.text) ?? .flag(false),
            "date": .text(entry.day.description), "kind": .text(entry.kind.lowercased()),
            "mood": entry.mood.map(Value.text) ?? .flag(false), "text": entry.text.map(Value.text) ?? .flag(false),
            "tags": .list(entry.tags.map { ["name": .text($0)] }),
            "createdAt": .text(DateTimeScalar.string(entry.createdAt)), "updatedAt": .text(DateTimeScalar.string(entry.updatedAt)),
            "images": .list(pictures), "recordings": .list(links), "sharedWith": .list(shares),
        ])
    }
}
