/// The usual file name extension of a stored file's content type (`.jpg` for `image/jpeg`), for
/// the name a download or a data export gives it; empty for a type it does not know.
public enum FileExtensions {
    public static func of(_ contentType: String) -> String {
        known[contentType] ?? ""
    }

    private static let known = [
        "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp", "image/heic": ".heic",
        "audio/mpeg": ".mp3", "audio/aac": ".aac", "audio/mp4": ".m4a", "audio/ogg": ".ogg", "audio/wav": ".wav",
        "audio/flac": ".flac", "audio/webm": ".webm", "video/mp4": ".mp4", "video/quicktime": ".mov",
        "video/webm": ".webm", "video/ogg": ".ogv", "application/zip": ".zip",
    ]
}
