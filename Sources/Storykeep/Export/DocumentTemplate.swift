import Foundation

/// A logic-less template (a small part of Mustache's syntax, written for this module) that
/// escapes every value for HTML: `{{name}}` is a value, escaped; `{{#name}}…{{/name}}` repeats
/// its body for each item of a list (or shows it once for `true`), `{{^name}}…{{/name}}` shows it
/// for an empty list, `false` or an absent value. No value is ever inserted unescaped; an item's
/// names hide the outer ones of the same name.
struct DocumentTemplate: Sendable {
    /// A value a template is filled with.
    indirect enum Value: Sendable {
        case text(String)
        case flag(Bool)
        case list([[String: Value]])
    }

    /// Why a template cannot be read: a section not closed, or closed by another name.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private indirect enum Node: Sendable {
        case literal(String)
        case value(String)
        case section(String, inverted: Bool, [Node])
    }

    private let nodes: [Node]

    init(_ text: String) throws {
        var index = text.startIndex
        nodes = try Self.parse(text, from: &index, closing: nil)
    }

    /// The template filled with `values`.
    func render(_ values: [String: Value]) -> String {
        var out = ""
        Self.render(nodes, [values], into: &out)
        return out
    }

    private static func parse(_ text: String, from index: inout String.Index, closing: String?) throws -> [Node] {
        var nodes: [Node] = []
        while index < text.endIndex {
            guard let open = text.range(of: "{{", range: index..<text.endIndex) else {
                nodes.append(.literal(String(text[index...])))
                index = text.endIndex
                break
            }
            if open.lowerBound > index { nodes.append(.literal(String(text[index..<open.lowerBound]))) }
            guard let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) else {
                throw Malformed(description: "a tag opened with {{ is not closed")
            }
            let tag = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            index = close.upperBound
            switch tag.first {
            case "#", "^":
                let name = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces)
                nodes.append(.section(name, inverted: tag.first == "^", try parse(text, from: &index, closing: name)))
            case "/":
                let name = String(tag.dropFirst()).trimmingCharacters(in: .whitespaces)
                guard name == closing else { throw Malformed(description: "{{/\(name)}} closes no open section") }
                return nodes
            default:
                nodes.append(.value(tag))
            }
        }
        if let closing { throw Malformed(description: "{{#\(closing)}} is not closed") }
        return nodes
    }

    private static func render(_ nodes: [Node], _ scopes: [[String: Value]], into out: inout String) {
        func lookup(_ name: String) -> Value? { scopes.reversed().lazy.compactMap { $0[name] }.first }
        for node in nodes {
            switch node {
            case .literal(let text):
                out += text
            case .value(let name):
                if case .text(let text)? = lookup(name) { escape(text, into: &out) }
            case .section(let name, let inverted, let body):
                let items: [[String: Value]]
                switch lookup(name) {
                case .list(let list)?: items = list
                case .flag(true)?: items = [[:]]
                case .text(let text)? where !text.isEmpty: items = [[:]]
                default: items = []
                }
                if inverted {
                    if items.isEmpty { render(body, scopes, into: &out) }
                } else {
                    for item in items { render(body, scopes + [item], into: &out) }
                }
            }
        }
    }

    /// `text` safe in HTML text and in a quoted attribute.
    static func escape(_ text: String) -> String {
        var out = ""
        escape(text, into: &out)
        return out
    }

    /// Appends `text` to `out`, safe in HTML text and in a quoted attribute. The characters
    /// escaped are ASCII, so the text is scanned by its UTF-8 bytes and the runs between them
    /// are copied whole (a picture's base64, tens of kilobytes, in one copy).
    static func escape(_ text: String, into out: inout String) {
        let utf8 = text.utf8
        var run = utf8.startIndex
        var index = run
        while index != utf8.endIndex {
            let entity: String? =
                switch utf8[index] {
                case UInt8(ascii: "&"): "&amp;"
                case UInt8(ascii: "<"): "&lt;"
                case UInt8(ascii: ">"): "&gt;"
                case UInt8(ascii: "\""): "&quot;"
                case UInt8(ascii: "'"): "&#39;"
                default: nil
                }
            if let entity {
                out += text[run..<index]
                out += entity
                run = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        out += text[run...]
    }
}
