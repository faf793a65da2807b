import NIOHTTP1

/// Registers `count` phones of each person signed in (`--phones`), with APNs tokens of random bytes for the app
/// `bundleID`, so that a notifier tells each of them when each of the person's scans ends (docs/operations.md,
/// scenario N).
struct PhoneRegistration: Sendable {
    let count: Int
    let bundleID: String

    /// Registers the phones of the person signed in with session `token`.
    func register(_ token: String, api: GatewayAPI) async throws {
        for _ in 0..<count {
            let phone = (0..<32).map { _ in hex(UInt8.random(in: 0...255)) }.joined()
            try await api.call(.PUT, "/v1/devices/\(phone)", token: token, body: ["bundleId": bundleID, "environment": "production"])
        }
    }

    private func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
    }
}
