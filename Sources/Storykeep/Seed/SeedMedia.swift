/// Small but valid media files for synthetic journals, made from a seeded generator: PNG
/// pictures (drawings and photos), WAV recordings and QuickTime movies of uncompressed frames.
/// Each is a complete file of its format (checksums, headers and sample tables right), a kilobyte
/// or two, and `MediaSniffer` recognises it as `image/png`, `audio/wav` or `video/quicktime`.
public enum SeedMedia {
    /// A drawing: strokes of a few colours on paper, `size`×`size` pixels.
    public static func drawing(_ random: inout SeedRandom, size: Int = 20) -> [UInt8] {
        var pixels = [UInt8](repeating: 0xFF, count: size * size * 3)
        for _ in 0..<random.int(2...4) {
            let colour = [UInt8(random.int(0...200)), UInt8(random.int(0...200)), UInt8(random.int(0...200))]
            var (x, y) = (random.int(0..<size), random.int(0..<size))
            for _ in 0..<random.int(size...(3 * size)) {
                let offset = (y * size + x) * 3
                pixels.replaceSubrange(offset..<offset + 3, with: colour)
                x = min(size - 1, max(0, x + random.int(-1...1)))
                y = min(size - 1, max(0, y + random.int(-1...1)))
            }
        }
        return png(width: size, height: size, rgb: pixels)
    }

    /// A photo: a gradient between two colours with a little noise, `size`×`size` pixels.
    public static func photo(_ random: inout SeedRandom, size: Int = 20) -> [UInt8] {
        let from = (0..<3).map { _ in Double(random.int(0...255)) }
        let to = (0..<3).map { _ in Double(random.int(0...255)) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(size * size * 3)
        for y in 0..<size {
            for x in 0..<size {
                let t = Double(x + y) / Double(2 * size - 2)
                for c in 0..<3 {
                    let value = from[c] + (to[c] - from[c]) * t + Double(random.int(-12...12))
                    pixels.append(UInt8(min(255, max(0, value.rounded()))))
                }
            }
        }
        return png(width: size, height: size, rgb: pixels)
    }

    /// A voice-note stand-in: a short tone (8 kHz, 8-bit mono PCM) in a RIFF WAVE file.
    public static func recording(_ random: inout SeedRandom) -> [UInt8] {
        let rate = 8000, count = random.int(1200...2400)
        let frequency = Double(random.int(180...520)), volume = Double(random.int(30...90))
        var samples = [UInt8](repeating: 128, count: count)
        for i in 0..<count {
            let fade = min(1, Double(min(i, count - i)) / 200)
            samples[i] = UInt8(128 + volume * fade * _sin(2 * Double.pi * frequency * Double(i) / Double(rate)))
        }
        var file = Array("RIFF".utf8) + le32(36 + count) + Array("WAVE".utf8)
        file += Array("fmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(rate) + le32(rate) + le16(1) + le16(8)
        file += Array("data".utf8) + le32(count) + samples
        if count % 2 == 1 { file.append(0) }
        return file
    }

    /// A clip: a QuickTime movie of four uncompressed 24-bit 8×8 frames (codec `raw `), a
    /// quarter of a second each.
    public static func clip(_ random: inout SeedRandom) -> [UInt8] {
        let (side, frames, timeScale, frameDuration) = (8, 4, 600, 150)
        let frameBytes = side * side * 3
        var media: [UInt8] = []
        var colour = (0..<3).map { _ in random.int(0...255) }
        for _ in 0..<frames {
            for y in 0..<side {
                for x in 0..<side {
                    for c in 0..<3 { media.append(UInt8((colour[c] + 9 * x + 5 * y) & 0xFF)) }
                }
            }
            colour = colour.map { ($0 + random.int(10...40)) & 0xFF }
        }
        let ftyp = box("ftyp", Array("qt  ".utf8) + be32(0x2005_0300) + Array("qt  ".utf8))
        let mdat = box("mdat", media)
        let duration = frames * frameDuration
        let matrix = be32(0x0001_0000) + be32(0) + be32(0) + be32(0) + be32(0x0001_0000) + be32(0) + be32(0) + be32(0)
            + be32(0x4000_0000)
        let mvhd = box(
            "mvhd",
            be32(0) + be32(0) + be32(0) + be32(timeScale) + be32(duration) + be32(0x0001_0000) + be16(0x0100)
                + [UInt8](repeating: 0, count: 10) + matrix + be32(0) + be32(0) + be32(0) + be32(0) + be32(0) + be32(0)
                + be32(2))
        let tkhd = box(
            "tkhd",
            be32(0x0000_000F) + be32(0) + be32(0) + be32(1) + be32(0) + be32(duration) + be32(0) + be32(0) + be16(0)
                + be16(0) + be16(0) + be16(0) + matrix + be32(side << 16) + be32(side << 16))
        let mdhd = box("mdhd", be32(0) + be32(0) + be32(0) + be32(timeScale) + be32(duration) + be16(0) + be16(0))
        func handler(_ kind: String, _ subtype: String) -> [UInt8] {
            box("hdlr", be32(0) + Array(kind.utf8) + Array(subtype.utf8) + be32(0) + be32(0) + be32(0) + [0])
        }
        let vmhd = box("vmhd", be32(1) + be16(0x40) + be16(0x8000) + be16(0x8000) + be16(0x8000))
        let dinf = box("dinf", box("dref", be32(0) + be32(1) + box("alis", be32(1))))
        let description =
            Array("raw ".utf8) + [UInt8](repeating: 0, count: 6) + be16(1) + be16(0) + be16(0) + be32(0) + be32(0)
            + be32(512) + be16(side) + be16(side) + be32(72 << 16) + be32(72 << 16) + be32(0) + be16(1)
            + [UInt8](repeating: 0, count: 32) + be16(24) + be16(0xFFFF)
        let stbl = box(
            "stbl",
            box("stsd", be32(0) + be32(1) + be32(description.count + 4) + description)
                + box("stts", be32(0) + be32(1) + be32(frames) + be32(frameDuration))
                + box("stsc", be32(0) + be32(1) + be32(1) + be32(frames) + be32(1))
                + box("stsz", be32(0) + be32(frameBytes) + be32(frames))
                + box("stco", be32(0) + be32(1) + be32(ftyp.count + 8)))
        let minf = box("minf", vmhd + handler("dhlr", "alis") + dinf + stbl)
        let mdia = box("mdia", mdhd + handler("mhlr", "vide") + minf)
        let moov = box("moov", mvhd + box("trak", tkhd + mdia))
        return ftyp + mdat + moov
    }

    // MARK: Formats

    /// A PNG of 8-bit RGB pixels, its image data in stored (uncompressed) deflate blocks.
    static func png(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + width * 3))
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw += rgb[(y * width * 3)..<((y + 1) * width * 3)]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, raw.count - offset)
            zlib.append(offset + length == raw.count ? 1 : 0)
            zlib += le16(length) + le16(~length & 0xFFFF)
            zlib += raw[offset..<offset + length]
            offset += length
        } while offset < raw.count
        zlib += be32(Int(adler32(raw)))
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    private static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        be32(payload.count + 8) + Array(type.utf8) + payload
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    private static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func be16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    private static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
}

/// sin without Foundation's overlay differences between platforms (the values only need to be
/// the same on every run; Glibc's and Darwin's sin agree to the last bit for these arguments, but
/// a Taylor series of our own removes the question).
@inline(__always)
private func _sin(_ x: Double) -> Double {
    var t = x.truncatingRemainder(dividingBy: 2 * Double.pi)
    if t > Double.pi { t -= 2 * Double.pi }
    if t < -Double.pi { t += 2 * Double.pi }
    let t2 = t * t
    return t * (1 - t2 / 6 * (1 - t2 / 20 * (1 - t2 / 42 * (1 - t2 / 72 * (1 - t2 / 110 * (1 - t2 / 156))))))
}
