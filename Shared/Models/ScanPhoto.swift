/// The rules a scan's photos must meet (docs/architecture.md, "2. The scan data flow", step 4): the gateway
/// enforces them, and the CLI checks them before it uploads, so that a user learns what to do without a round trip.
public enum ScanPhoto {
    /// The largest photo, in bytes: 2 MiB.
    public static let maximumSize = 2 * 1024 * 1024
    /// The most photos one scan takes: parts of one kitchen (fridge, freezer, pantry shelf).
    public static let maximumCount = 5
    /// The most bytes the photos of one scan may have together: 8 MiB.
    public static let maximumTotalSize = 8 * 1024 * 1024

    /// Whether `bytes` start as every JPEG does (`FF D8 FF`).
    public static func startsLikeJPEG(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xD8, 0xFF])
    }
}

/// What a scan's photos show: the inside of a kitchen (`fridge`, the default), a cooked dish to cook again (`dish`), or
/// a shopping receipt in one or more parts (`receipt`).
public enum ScanMode: String, Codable, Hashable, Sendable, CaseIterable {
    case fridge
    case dish
    case receipt

    /// The modes an app that names none knows: a scan of any other mode is listed only to an app that asks for its mode
    /// (`GET /v1/scans?mode=receipt`), since an app that decodes `mode` as an enum of these would fail on it.
    public static let listedByDefault: [ScanMode] = [.fridge, .dish]
}
