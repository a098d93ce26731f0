/// Decides a file's content type from its first bytes (its "magic number"), not from what the
/// client declared, and accepts only the audio, video and image formats the apps play and show.
///
/// An executable, an HTML page or an SVG (which can carry scripts) declared as `image/png` is
/// refused, because its bytes are none of the formats below. Where a container holds either
/// audio or video (MP4, WebM, Ogg), the declared type chooses between the two, and anything else
/// declared falls back to the video type.
public enum MediaSniffer {
    /// Every content type `sniff` can answer; Migrations/0003_journals.sql allows exactly these.
    public static let contentTypes: Set<String> = [
        "image/png", "image/jpeg", "image/gif", "image/webp", "image/heic",
        "audio/mpeg", "audio/aac", "audio/mp4", "audio/ogg", "audio/wav", "audio/flac", "audio/webm",
        "video/mp4", "video/quicktime", "video/webm", "video/ogg",
    ]

    /// The content type of `bytes`, or `nil` if they are none of the accepted formats.
    /// `declared` (the client's Content-Type, parameters allowed) only picks audio or video for
    /// containers that may hold either.
    public static func sniff(_ bytes: some Collection<UInt8>, declared: String? = nil) -> String? {
        let head = Array(bytes.prefix(32))
        let declaredAudio = declared.map { $0.lowercased().hasPrefix("audio/") } ?? false
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }

        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if ascii("GIF87a") || ascii("GIF89a") { return "image/gif" }
        if ascii("RIFF") && ascii("WEBP", at: 8) { return "image/webp" }
        if ascii("RIFF") && ascii("WAVE", at: 8) { return "audio/wav" }
        if ascii("fLaC") { return "audio/flac" }
        if ascii("OggS") { return declared?.lowercased().hasPrefix("video/") == true ? "video/ogg" : "audio/ogg" }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return declaredAudio ? "audio/webm" : "video/webm" }
        if ascii("ftyp", at: 4) { return isoMedia(brand: head.count >= 12 ? Array(head[8..<12]) : [], declaredAudio) }
        if ascii("ID3") { return "audio/mpeg" }
        // An MPEG audio frame: 11 sync bits. Layer bits 00 mean AAC in ADTS framing.
        if head.count >= 2, head[0] == 0xFF, head[1] & 0xE0 == 0xE0 {
            return head[1] & 0x06 == 0 ? "audio/aac" : "audio/mpeg"
        }
        return nil
    }

    /// An ISO base media file (MP4, QuickTime, HEIF, M4A) by its major brand.
    private static func isoMedia(brand: [UInt8], _ declaredAudio: Bool) -> String? {
        switch String(decoding: brand, as: UTF8.self) {
        case "heic", "heix", "heim", "heis", "mif1", "msf1": "image/heic"
        case "qt  ": "video/quicktime"
        case "M4A ", "M4B ": "audio/mp4"
        case "isom", "iso2", "iso4", "iso5", "iso6", "mp41", "mp42", "avc1", "dash", "M4V ", "3gp4", "3gp5", "3g2a":
            declaredAudio ? "audio/mp4" : "video/mp4"
        default: nil
        }
    }
}
