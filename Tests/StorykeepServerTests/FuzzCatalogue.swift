import Foundation
import GraphQL

/// The hostile values the fuzz pass sends, by the type of the input they go to: extreme numbers,
/// NULs, lone surrogates, bytes that are not UTF-8, huge strings, Unicode that counts differently
/// in characters, code points and bytes, SQL and pattern metacharacters, malformed dates, unknown
/// enum values, and values of the wrong shape.
enum FuzzCatalogue {
    /// The cases for a value of `type` (a named type of `schema`, or a list or non-null of one).
    static func cases(for type: IntrospectedSchema.TypeRef, in schema: IntrospectedSchema) -> [FuzzCase] {
        var cases = [FuzzCase("null", .null)]
        switch type.nullable {
        case .list(let element):
            cases += [
                FuzzCase("empty list", .list([])),
                FuzzCase("list of nulls", .list([.null, .null])),
                FuzzCase("nested list", .list([.list([.list([.token("1")])])])),
                FuzzCase("object for list", .object([])),
                FuzzCase("10,000 items", .list(Array(repeating: sample(for: element, in: schema), count: 10_000)), onlyAsVariable: true),
            ]
        case .named(let name):
            guard let named = schema.types[name] else { return cases }
            switch named.kind {
            case .inputObject:
                cases += [
                    FuzzCase("empty object", .object([])),
                    FuzzCase("unknown field", .object([("zzUnknown", .token("1"))])),
                    FuzzCase("string for object", .string("{}")),
                    FuzzCase("list for object", .list([.object([])])),
                ]
            case .enumeration:
                cases += enums(named.enumValues)
            default:
                cases += scalars(name)
            }
        case .nonNull:
            break  // `nullable` never is
        }
        return cases
    }

    /// A value of the element type, to repeat in a long list: a valid-looking one where there is one.
    private static func sample(for type: IntrospectedSchema.TypeRef, in schema: IntrospectedSchema) -> FuzzValue {
        let named = schema.types[type.named]
        switch (named?.kind, type.named) {
        case (.enumeration, _): return .enumValue(named?.enumValues.first ?? "A")
        case (_, "Int"), (_, "Float"): return .token("1")
        case (_, "ID"): return .string("00000000-0000-4000-8000-000000000001")
        case (.inputObject, _): return .object([])
        default: return .string("x")
        }
    }

    private static func scalars(_ name: String) -> [FuzzCase] {
        switch name {
        case "Int", "Float": numbers
        case "Boolean": [FuzzCase("string true", .string("true")), FuzzCase("1", .token("1")), FuzzCase("TRUE", .enumValue("TRUE"))]
        case "ID": strings + ids + [FuzzCase("2^63", .token("9223372036854775808")), FuzzCase("-1", .token("-1"))]
        case "String": strings + [FuzzCase("number for string", .token("1e308"))]
        case "Date": dates
        case "DateTime": dateTimes
        case "Upload": uploads
        // A scalar added later: strings and numbers both, until it gets its own cases.
        default: strings + numbers
        }
    }

    static let numbers: [FuzzCase] = [
        FuzzCase("0", .token("0")),
        FuzzCase("-1", .token("-1")),
        FuzzCase("Int32.max", .token("2147483647")),
        FuzzCase("Int32.min", .token("-2147483648")),
        FuzzCase("2^31", .token("2147483648")),
        FuzzCase("2^53", .token("9007199254740992")),
        FuzzCase("2^63", .token("9223372036854775808")),
        FuzzCase("-2^63", .token("-9223372036854775808")),
        FuzzCase("2^64", .token("18446744073709551616")),
        FuzzCase("1e308", .token("1e308")),
        FuzzCase("-1e308", .token("-1e308")),
        FuzzCase("1e309", .token("1e309")),
        FuzzCase("1e-400", .token("1e-400")),
        FuzzCase("400 digits", .token(String(repeating: "9", count: 400))),
        FuzzCase("1.5", .token("1.5")),
        FuzzCase("-0", .token("-0")),
        FuzzCase("string 12", .string("12")),
        FuzzCase("string 2^63", .string("9223372036854775808")),
        FuzzCase("true", .token("true")),
    ]

    static let strings: [FuzzCase] = [
        FuzzCase("empty", .string("")),
        FuzzCase("blank", .string(" \t\n ")),
        FuzzCase("NUL start", .string("\u{0}abc")),
        FuzzCase("NUL middle", .string("kept\u{0}dropped")),
        FuzzCase("NUL end", .string("abc\u{0}")),
        FuzzCase("lone high surrogate", .rawString("a\\ud800b")),
        FuzzCase("lone low surrogate", .rawString("\\udc00")),
        FuzzCase("reversed surrogates", .rawString("\\udc00\\ud800")),
        FuzzCase("invalid UTF-8", .escaped([0x61, 0xFF, 0xFE, 0x62])),
        FuzzCase("overlong NUL", .escaped([0xC0, 0x80])),
        FuzzCase("UTF-8 surrogate", .escaped([0xED, 0xA0, 0x80])),
        FuzzCase("1 MB", .string(String(repeating: "a", count: 1_000_000)), onlyAsVariable: true),
        FuzzCase("60,000 words", .string(String(repeating: "word ", count: 60_000)), onlyAsVariable: true),
        FuzzCase("5,000 -word or", .string(String(repeating: "-word or ", count: 5_000)), onlyAsVariable: true),
        FuzzCase("RTL override", .string("\u{202E}gnp.exe\u{202C}")),
        FuzzCase("combining e\u{301} x150", .string(String(repeating: "e\u{301}", count: 150))),
        FuzzCase("zalgo", .string("Z" + String(repeating: "\u{336}\u{300}\u{35C}", count: 100))),
        FuzzCase("emoji family x60", .string(String(repeating: "👨‍👩‍👧‍👦", count: 60))),
        FuzzCase("zero-width and BOM", .string("\u{FEFF}\u{200B}admin\u{200D}")),
        FuzzCase("noncharacter U+FFFF", .string("\u{FFFF}")),
        FuzzCase("SQL quote", .string("' OR '1'='1' --")),
        FuzzCase("SQL stacked", .string("x'); DROP TABLE people; --")),
        FuzzCase("LIKE wildcards", .string("%_%\\")),
        FuzzCase("regex", .string("^(a+)+$[(?")),
        FuzzCase("tsquery operators", .string("!&|():*<-> 'a' \"b\" <0>")),
        FuzzCase("format string", .string("%s%n%x{0}\\(x)")),
        FuzzCase("CRLF header", .string("a\r\nSet-Cookie: x=y")),
        FuzzCase("markup", .string("<script>alert(1)</script>")),
        FuzzCase("10,000 chars", .string(String(repeating: "x", count: 10_000))),
    ]

    static let ids: [FuzzCase] = [
        FuzzCase("nil UUID", .string("00000000-0000-0000-0000-000000000000")),
        FuzzCase("max UUID", .string("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")),
        FuzzCase("UUID + NUL", .string("00000000-0000-4000-8000-000000000001\u{0}")),
        FuzzCase("UUID braces", .string("{00000000-0000-4000-8000-000000000001}")),
        FuzzCase("path", .string("../../../etc/passwd")),
    ]

    static let dates: [FuzzCase] = [
        FuzzCase("empty", .string("")),
        FuzzCase("year 0", .string("0000-01-01")),
        FuzzCase("year 1", .string("0001-01-01")),
        FuzzCase("year -1", .string("-0001-01-01")),
        FuzzCase("9999-12-31", .string("9999-12-31")),
        FuzzCase("99999-12-31", .string("99999-12-31")),
        FuzzCase("year 2^63", .string("9223372036854775808-01-01")),
        FuzzCase("+275760-09-13", .string("+275760-09-13")),
        FuzzCase("February 30", .string("2026-02-30")),
        FuzzCase("month 13", .string("2026-13-01")),
        FuzzCase("month 0", .string("2026-00-10")),
        FuzzCase("unpadded", .string("2026-1-1")),
        FuzzCase("with time", .string("2026-11-22T09:30:00.000Z")),
        FuzzCase("NUL", .string("2026-01-01\u{0}")),
        FuzzCase("lone surrogate", .rawString("2026-01-0\\ud800")),
        FuzzCase("1e20", .token("1e20")),
        FuzzCase("string 1e20", .string("1e20")),
        FuzzCase("-1", .token("-1")),
        FuzzCase("1 MB", .string(String(repeating: "2", count: 1_000_000)), onlyAsVariable: true),
    ]

    static let dateTimes: [FuzzCase] = dates + [
        FuzzCase("hour 25", .string("2026-11-22T25:61:61.000Z")),
        FuzzCase("year 0 instant", .string("0000-01-01T00:00:00.000Z")),
        FuzzCase("offset +99:99", .string("2026-11-22T09:30:00+99:99")),
    ]

    static let uploads: [FuzzCase] = [
        FuzzCase("string", .string("upload:0")),
        FuzzCase("object", .object([("filename", .string("a.png"))])),
        FuzzCase("1e20", .token("1e20")),
        FuzzCase("NUL", .string("\u{0}")),
    ]

    static func enums(_ values: [String]) -> [FuzzCase] {
        let first = values.first ?? "A"
        return [
            FuzzCase("unknown", .enumValue("ZZ_UNKNOWN")),
            FuzzCase("lowercase", .enumValue(first.lowercased())),
            FuzzCase("string literal", FuzzValue(json: FuzzValue.string(first).json, literal: FuzzValue.string(first).literal)),
            FuzzCase("NUL", .string(first + "\u{0}")),
            FuzzCase("lone surrogate", .rawString(first + "\\ud800")),
            FuzzCase("empty", .string("")),
            FuzzCase("1", .token("1")),
            FuzzCase("true", .token("true")),
        ]
    }
}

extension FuzzCatalogue {
    /// Cursors forged from `cursor`, one the server gave: each number in its decoded text (a
    /// word of digits; UUIDs are left whole) replaced with an extreme one, and encoded back as it
    /// came (base64, or base64url without padding). None for a cursor that is not base64 text.
    static func forgedCursors(from cursor: String) -> [FuzzCase] {
        let urlSafe = !cursor.contains(where: { "+/=".contains($0) })
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return [] }
        func encode(_ text: String) -> String {
            let standard = Data(text.utf8).base64EncodedString()
            guard urlSafe else { return standard }
            return standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let words = text.matches(of: /[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}|[A-Za-z0-9]+/)
        let numbers = words.map(\.range).filter { text[$0].allSatisfy { $0.isASCII && $0.isNumber } }
        let extremes = ["9223372036854775807", "-9223372036854775808", "99999999999999999999", "-1"]
        return numbers.enumerated().flatMap { position, range in
            extremes.map { extreme in
                var forged = text
                forged.replaceSubrange(range, with: extreme)
                return FuzzCase("cursor number \(position + 1) = \(extreme)", .string(encode(forged)))
            }
        }
    }
}

extension GraphQLValue {
    /// The first `cursor` or `endCursor` string anywhere in a response.
    var firstCursor: String? {
        switch self {
        case .object(let object):
            for (key, value) in object.entries {
                if key == "cursor" || key == "endCursor", let cursor = value.stringValue { return cursor }
                if let cursor = value.firstCursor { return cursor }
            }
            return nil
        case .list(let items):
            return items.lazy.compactMap(\.firstCursor).first
        default:
            return nil
        }
    }
}
