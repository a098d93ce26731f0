/// Files as the apps send them: the first bytes of each format, then a payload that varies (so
/// that a range read off by one shows).
public enum SampleMedia {
    public static let png = png(bytes: 300)
    public static let jpeg = file([0xFF, 0xD8, 0xFF, 0xE0], 300)
    public static let mp3 = mp3(bytes: 400)
    /// MPEG-4 audio (brand `M4A `).
    public static let m4a = file([0, 0, 0, 0x18] + Array("ftypM4A ".utf8), 400)
    /// MPEG-4 video (brand `isom`).
    public static let mp4 = file([0, 0, 0, 0x18] + Array("ftypisom".utf8), 500)
    /// A Linux executable.
    public static let elf = file([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0], 200)
    /// A Windows executable.
    public static let exe = file(Array("MZ".utf8), 200)

    /// A PNG `count` bytes long.
    public static func png(bytes count: Int) -> [UInt8] { file([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], count) }

    /// An MP3 (with an ID3 tag) `count` bytes long.
    public static func mp3(bytes count: Int) -> [UInt8] { file(Array("ID3".utf8), count) }

    /// `magic`, then the payload, `count` bytes in all; made a page at a time.
    private static func file(_ magic: [UInt8], _ count: Int) -> [UInt8] {
        let page = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        var bytes = magic
        bytes.reserveCapacity(max(count, magic.count))
        while bytes.count < count { bytes += page.prefix(count - bytes.count) }
        return bytes
    }
}
