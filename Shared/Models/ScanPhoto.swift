/// The rules a scan's photo must meet (DESIGN.md §2): the gateway enforces them, and the CLI checks them before it
/// uploads, so that a user learns what to do without a round trip.
public enum ScanPhoto {
    /// The largest photo, in bytes: 2 MiB.
    public static let maximumSize = 2 * 1024 * 1024

    /// Whether `bytes` start as every JPEG does (`FF D8 FF`).
    public static func startsLikeJPEG(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }
}
