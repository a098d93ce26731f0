/// Block strings: the spec's `BlockStringValue` (graphql-js `dedentBlockStringLines`) and the
/// printing of a value as a block string (graphql-js `printBlockString`).
enum BlockString {
    /// The value of a block string whose raw lines are `raw[lineEnds[i-1]..<lineEnds[i]]`:
    /// the common indentation of all lines but the first removed, leading and trailing blank
    /// lines dropped, joined with `\n`.
    static func dedentedValue(raw: [UInt8], lineEnds: [Int]) -> String {
        var lines: [Range<Int>] = []
        lines.reserveCapacity(lineEnds.count)
        var start = 0
        for end in lineEnds {
            lines.append(start..<end)
            start = end
        }
        var commonIndent = Int.max
        var firstNonEmpty: Int? = nil
        var lastNonEmpty = -1
        for (index, line) in lines.enumerated() {
            var indent = 0
            while indent < line.count && (raw[line.lowerBound + indent] == 0x20 || raw[line.lowerBound + indent] == 0x09) {
                indent += 1
            }
            if indent == line.count { continue }  // blank line
            if firstNonEmpty == nil { firstNonEmpty = index }
            lastNonEmpty = index
            if index != 0 && indent < commonIndent { commonIndent = indent }
        }
        let first = firstNonEmpty ?? 0
        guard first <= lastNonEmpty else { return "" }
        var value: [UInt8] = []
        value.reserveCapacity(raw.count)
        for index in first...lastNonEmpty {
            if index != first { value.append(0x0A) }
            let line = lines[index]
            let start = index == 0 ? line.lowerBound : line.lowerBound + min(commonIndent, line.count)
            value.append(contentsOf: raw[start..<line.upperBound])
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Prints `value` as a block string, in the indented block form unless it is short and on one
    /// line; like graphql-js `printBlockString`.
    static func print(_ value: String) -> String {
        let escaped = escapeTripleQuotes(value)
        let lines = splitLines(escaped)
        let isSingleLine = lines.count == 1
        // Common indentation is kept by starting on a new line.
        let forceLeadingNewLine =
            lines.count > 1 && lines.dropFirst().allSatisfy { line in line.isEmpty || startsWithBlank(line.utf8) }
        // Trailing triple quotes only look confusing, they don't force a new line.
        let hasTrailingTripleQuotes = escaped.utf8.reversed().starts(with: "\"\"\"\\".utf8)
        let hasTrailingQuote = value.utf8.last == 0x22 && !hasTrailingTripleQuotes
        let hasTrailingSlash = value.utf8.last == 0x5C
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines =
            !isSingleLine || value.unicodeScalars.count > 70 || forceTrailingNewLine || forceLeadingNewLine
            || hasTrailingTripleQuotes
        // A single line starting with white space must not be moved to its own line.
        let skipLeadingNewLine = isSingleLine && startsWithBlank(value.utf8)
        let before = (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine ? "\n" : ""
        let after = printAsMultipleLines || forceTrailingNewLine ? "\n" : ""
        return "\"\"\"" + before + escaped + after + "\"\"\""
    }

    private static func startsWithBlank<S: Collection<UInt8>>(_ utf8: S) -> Bool {
        utf8.first == 0x20 || utf8.first == 0x09
    }

    /// `"""` becomes `\"""`, the one escape of block strings.
    private static func escapeTripleQuotes(_ value: String) -> String {
        let utf8 = Array(value.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == 0x22 && index + 2 < utf8.count && utf8[index + 1] == 0x22 && utf8[index + 2] == 0x22 {
                result.append(contentsOf: [0x5C, 0x22, 0x22, 0x22])
                index += 3
            } else {
                result.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Splits at GraphQL's line terminators only: `\r\n`, `\n`, `\r`.
    static func splitLines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.utf8.startIndex
        var index = start
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(Substring(utf8[start..<index]))
                var next = utf8.index(after: index)
                if byte == 0x0D && next < utf8.endIndex && utf8[next] == 0x0A { next = utf8.index(after: next) }
                start = next
                index = next
            } else {
                index = utf8.index(after: index)
            }
        }
        lines.append(Substring(utf8[start..<utf8.endIndex]))
        return lines
    }
}
