/// Writes compact JSON the way JavaScript's `JSON.stringify` does (numbers included: `1.0`
/// prints as `1`, `1e-7` as `1e-7`, non-finite floats as `null`), for responses.
///
/// A response is written once per request and is most of its cost after execution, so the
/// writer works on a buffer of its own: a byte is a store, a string without characters to
/// escape is one copy, and the bytes reach the caller's array in one copy at the end.
struct JSONWriter {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int
    /// The written form of the keys of objects that share one array of keys (the executor
    /// builds every object of a selection set with its plan's array), by that array's storage:
    /// each key's `,"key":` (no comma for the first), as a range of `keyBytes`. Keys are quoted
    /// once per array instead of once per object. The arrays live as long as the value being
    /// written, so no storage address is reused for another array meanwhile.
    /// A response has one array of keys per selection set, a handful: they are looked up in
    /// order, and at most `maxKeyForms` arrays are kept (objects of other origins, each with
    /// keys of its own, are written key by key).
    private var keyForms: [(storage: UnsafeRawPointer, forms: [Range<Int>])] = []
    private var keyBytes: [UInt8] = []
    private static let maxKeyForms = 32

    private init(capacity: Int) {
        self.capacity = capacity
        self.base = .allocate(capacity: capacity)
    }

    /// Appends `value` as compact JSON to `out`. Deep values recurse: output values are as
    /// deep as the selection sets (or the inputs) that made them, which validation bounds.
    static func write(_ value: GraphQLValue, to out: inout [UInt8]) {
        writing(to: &out) { $0.value(value) }
    }

    /// Appends the data of a response tape (`ResponseTape`) as compact JSON to `out`.
    static func write(_ tape: ResponseTape, to out: inout [UInt8]) {
        var offset = 0
        writing(to: &out) { $0.tokens(of: tape, 0, tape.tokens, &offset) }
    }

    /// Runs `body` on a writer of its own and appends what it wrote to `out`.
    private static func writing(to out: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
        // Room for a typical response at once (allocating more costs nothing more): no regrowth.
        var writer = JSONWriter(capacity: 32 << 10)
        defer { writer.base.deallocate() }
        body(&writer)
        out.append(contentsOf: UnsafeBufferPointer(start: writer.base, count: writer.count))
    }

    // MARK: - Values

    /// The value beginning at `offset` of tape number `number` of `tape` (see `ResponseTape.Mark`).
    private mutating func tokens(
        of tape: ResponseTape, _ number: Int, _ tokens: [ResponseTape.Token], _ offset: inout Int
    ) {
        if tape.isNulled(ResponseTape.Mark(tape: number, offset: offset)) {
            ascii("null")
            offset = ResponseTape.end(of: tokens, from: offset)
            return
        }
        let token = tokens[offset]
        offset += 1
        switch token {
        case .value(let value):
            self.value(value)
        case .object(let keys):
            byte(UInt8(ascii: "{"))
            guard let forms = keyForms(keys) else {
                for index in keys.indices {
                    if index > 0 { byte(UInt8(ascii: ",")) }
                    string(keys[index])
                    byte(UInt8(ascii: ":"))
                    self.tokens(of: tape, number, tokens, &offset)
                }
                byte(UInt8(ascii: "}"))
                return
            }
            for index in forms.indices {
                keyForm(forms[index])
                self.tokens(of: tape, number, tokens, &offset)
            }
            byte(UInt8(ascii: "}"))
        case .list(let count):
            byte(UInt8(ascii: "["))
            for index in 0..<count {
                if index > 0 { byte(UInt8(ascii: ",")) }
                self.tokens(of: tape, number, tokens, &offset)
            }
            byte(UInt8(ascii: "]"))
        case .hole(let fill):
            var start = 0
            self.tokens(of: tape, fill + 1, tape.fills[fill], &start)
        }
    }


    private mutating func value(_ value: GraphQLValue) {
        switch value {
        case .null: ascii("null")
        case .bool(let value): ascii(value ? "true" : "false")
        case .int(let value): integer(value)
        case .float(let value):
            var bytes: [UInt8] = []
            JSONNumber.write(value, to: &bytes)
            bytes.withUnsafeBufferPointer { append($0) }
        case .string(let value): string(value)
        case .list(let items):
            byte(UInt8(ascii: "["))
            for index in items.indices {
                if index > 0 { byte(UInt8(ascii: ",")) }
                self.value(items[index])
            }
            byte(UInt8(ascii: "]"))
        case .object(let object):
            byte(UInt8(ascii: "{"))
            let values = object.values
            guard let forms = keyForms(object.keys) else {
                let keys = object.keys
                for index in keys.indices {
                    if index > 0 { byte(UInt8(ascii: ",")) }
                    string(keys[index])
                    byte(UInt8(ascii: ":"))
                    self.value(values[index])
                }
                byte(UInt8(ascii: "}"))
                return
            }
            for index in forms.indices {
                keyForm(forms[index])
                self.value(values[index])
            }
            byte(UInt8(ascii: "}"))
        }
    }

    /// A key's written form (`,"key":`), from `keyBytes`.
    @inline(__always)
    private mutating func keyForm(_ form: Range<Int>) {
        reserve(form.count)
        keyBytes.withUnsafeBufferPointer { keys in
            (base + count).update(from: keys.baseAddress! + form.lowerBound, count: form.count)
        }
        count += form.count
    }

    /// The written forms of `keys` (see `keyForms`), made on first sight of their array; nil
    /// when there is no room for another array.
    private mutating func keyForms(_ keys: [String]) -> [Range<Int>]? {
        guard let storage = keys.withUnsafeBufferPointer({ UnsafeRawPointer($0.baseAddress) }) else { return [] }
        for index in keyForms.indices where keyForms[index].storage == storage { return keyForms[index].forms }
        guard keyForms.count < Self.maxKeyForms else { return nil }
        // Written with the writer itself, then moved to `keyBytes`.
        let mark = count
        var forms: [Range<Int>] = []
        forms.reserveCapacity(keys.count)
        for index in keys.indices {
            let start = keyBytes.count + count - mark
            if index > 0 { byte(UInt8(ascii: ",")) }
            string(keys[index])
            byte(UInt8(ascii: ":"))
            forms.append(start..<keyBytes.count + count - mark)
        }
        keyBytes.append(contentsOf: UnsafeBufferPointer(start: base + mark, count: count - mark))
        count = mark
        keyForms.append((storage, forms))
        return forms
    }

    /// A string, quoted; runs of bytes that need no escape are copied whole.
    private mutating func string(_ string: String) {
        let written: Void? = string.utf8.withContiguousStorageIfAvailable { quoted($0) }
        if written == nil {
            var string = string
            string.withUTF8 { quoted($0) }
        }
    }

    private mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(UInt8(ascii: "\""))
        guard let source = utf8.baseAddress else {
            byte(UInt8(ascii: "\""))
            return
        }
        let length = utf8.count
        var run = 0
        var index = 0
        while index < length {
            // Eight bytes at a time while none needs an escape.
            if index + 8 <= length,
                !Self.mayNeedEscape(UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self))
            {
                index += 8
                continue
            }
            let end = min(index + 8, length)
            while index < end {
                let byte = source[index]
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                    append(UnsafeBufferPointer(start: source + run, count: index - run))
                    escape(byte)
                    run = index + 1
                }
                index += 1
            }
        }
        append(UnsafeBufferPointer(start: source + run, count: length - run))
        byte(UInt8(ascii: "\""))
    }

    /// Whether one of eight bytes may be a control character, a quote or a backslash (never
    /// false when one is; sometimes true when none is).
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        return (control | quote | backslash) & high != 0
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): ascii(#"\""#)
        case UInt8(ascii: "\\"): ascii(#"\\"#)
        case 0x0A: ascii(#"\n"#)
        case 0x0D: ascii(#"\r"#)
        case 0x09: ascii(#"\t"#)
        case 0x08: ascii(#"\b"#)
        case 0x0C: ascii(#"\f"#)
        default:
            let hex: StaticString = "0123456789abcdef"
            ascii(#"\u00"#)
            self.byte(hex.utf8Start[Int(byte >> 4)])
            self.byte(hex.utf8Start[Int(byte & 0xF)])
        }
    }

    /// An integer's decimal digits.
    private mutating func integer(_ value: Int) {
        reserve(20)
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var scale: UInt = 10
        while digits < 20, magnitude >= scale {
            digits += 1
            scale = scale.multipliedReportingOverflow(by: 10).partialValue
        }
        var position = count + digits
        count = position
        repeat {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    // MARK: - Bytes

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: max(capacity * 2, needed))
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = max(capacity * 2, needed)
    }

    @inline(__always)
    private mutating func byte(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    private mutating func ascii(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }
}

/// JavaScript's Number::toString, from Swift's shortest round-trip digits.
private enum JSONNumber {
    static func write(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if abs(value) < 1e18, let integer = Int64(exactly: value) {
            out.append(contentsOf: String(integer).utf8)
            return
        }
        // Split Swift's description ("1.5e-07", "123.25", "1e+21") into digits and exponent.
        let description = abs(value).description
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var iterator = description.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: ".") {
                pointPosition = digits.count
            } else if byte == UInt8(ascii: "e") {
                exponent = Int(String(decoding: Array(IteratorSequence(iterator)), as: UTF8.self)) ?? 0
                break
            } else {
                digits.append(byte)
            }
        }
        // n: the position of the decimal point relative to the digits, as in ECMA-262.
        var n = (pointPosition ?? digits.count) + exponent
        while digits.count > 1, digits.first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while digits.count > 1, digits.last == UInt8(ascii: "0") { digits.removeLast() }
        let k = digits.count
        if value < 0 { out.append(UInt8(ascii: "-")) }
        if k <= n, n <= 21 {
            out.append(contentsOf: digits)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: n - k))
        } else if 0 < n, n <= 21 {
            out.append(contentsOf: digits[0..<n])
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: digits[n...])
        } else if -6 < n, n <= 0 {
            out.append(contentsOf: "0.".utf8)
            out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -n))
            out.append(contentsOf: digits)
        } else {
            out.append(digits[0])
            if k > 1 {
                out.append(UInt8(ascii: "."))
                out.append(contentsOf: digits[1...])
            }
            out.append(UInt8(ascii: "e"))
            out.append(UInt8(ascii: n - 1 >= 0 ? "+" : "-"))
            out.append(contentsOf: String(abs(n - 1)).utf8)
        }
    }
}
