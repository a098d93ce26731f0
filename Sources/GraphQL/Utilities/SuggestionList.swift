/// graphql-js's `suggestionList`: the options close enough to `input` to be a likely typo,
/// nearest first (ties in natural order). Close enough means a Damerau-Levenshtein distance,
/// ignoring case, of at most 40% of the input's length (a case change alone counts as one edit).
/// Callers must not suggest anything when `schema.suggestionsEnabled` is false.
public func suggestionList(_ input: String, _ options: some Sequence<String>) -> [String] {
    let measure = LexicalDistance(input)
    let threshold = Int(Double(measure.inputLength) * 0.4) + 1
    var found: [(option: String, distance: Int)] = []
    for option in options {
        if let distance = measure.distance(to: option, threshold: threshold) {
            found.append((option, distance))
        }
    }
    found.sort { a, b in
        a.distance != b.distance ? a.distance < b.distance : naturalCompare(a.option, b.option) < 0
    }
    return found.map(\.option)
}

/// graphql-js's `didYouMean`: `" Did you mean "A", "B", or "C"?"` for up to five suggestions,
/// `""` for none. `subMessage` goes before the list (`" Did you mean the enum value "A"?"`).
public func didYouMean(_ suggestions: [String], subMessage: String? = nil) -> String {
    guard !suggestions.isEmpty else { return "" }
    var message = " Did you mean "
    if let subMessage { message += subMessage + " " }
    return message + orList(suggestions.prefix(5).map { "\"\($0)\"" }) + "?"
}

/// `A`, `A or B`, `A, B, or C`.
public func orList(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    case 2: return items[0] + " or " + items[1]
    default: return items.dropLast().joined(separator: ", ") + ", or " + items.last!
    }
}

/// graphql-js's `naturalCompare`: character by character in UTF-16 code units, except that
/// runs of digits compare as numbers (`a2` before `a10`).
public func naturalCompare(_ a: String, _ b: String) -> Int {
    let a = Array(a.utf16), b = Array(b.utf16)
    var i = 0, j = 0
    func isDigit(_ unit: UInt16) -> Bool { unit >= 0x30 && unit <= 0x39 }
    while i < a.count && j < b.count {
        if isDigit(a[i]) && isDigit(b[j]) {
            var aNumber = 0, bNumber = 0
            repeat {
                aNumber = aNumber &* 10 &+ Int(a[i] - 0x30)
                i += 1
            } while i < a.count && isDigit(a[i]) && aNumber > 0
            repeat {
                bNumber = bNumber &* 10 &+ Int(b[j] - 0x30)
                j += 1
            } while j < b.count && isDigit(b[j]) && bNumber > 0
            if aNumber != bNumber { return aNumber < bNumber ? -1 : 1 }
        } else {
            if a[i] != b[j] { return a[i] < b[j] ? -1 : 1 }
            i += 1
            j += 1
        }
    }
    return a.count - b.count
}

/// The edit distance from one input to many options, reusing its rows.
private struct LexicalDistance {
    let input: String
    let inputLower: [UInt16]
    var inputLength: Int { inputLower.count }

    init(_ input: String) {
        self.input = input
        self.inputLower = Array(input.lowercased().utf16)
    }

    func distance(to option: String, threshold: Int) -> Int? {
        if option == input { return 0 }
        let optionLower = Array(option.lowercased().utf16)
        if optionLower == inputLower { return 1 }
        var a = optionLower, b = inputLower
        if a.count < b.count { swap(&a, &b) }
        if a.count - b.count > threshold { return nil }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: 3)
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...max(a.count, 1) where a.count > 0 {
            var smallest = i
            rows[i % 3][0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var cell = min(rows[(i - 1) % 3][j] + 1, rows[i % 3][j - 1] + 1, rows[(i - 1) % 3][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    cell = min(cell, rows[(i - 2) % 3][j - 2] + 1)
                }
                smallest = min(smallest, cell)
                rows[i % 3][j] = cell
            }
            if smallest > threshold { return nil }
        }
        let distance = rows[a.count % 3][b.count]
        return distance <= threshold ? distance : nil
    }
}
