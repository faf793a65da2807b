import Foundation

/// An APNs device token: the address of one app on one phone, as the app hands it over in hex. Apple documents the
/// token as opaque bytes whose length may change, so only its form is checked: an even number of hex digits, 32 to 100
/// bytes. Kept in lower case. Not a credential, but it names a phone: logs show ``logged`` only.
public struct DeviceToken: Hashable, Sendable, CustomStringConvertible {
    /// The token's bytes in lower-case hex, as the APNs request path takes it.
    public let hex: String

    /// The shortest and longest token taken, in bytes (today's tokens are 32).
    public static let bytes = 32...100

    /// The token `text` names; nil when it is not 64 to 200 hex digits, an even number of them.
    public init?(_ text: String) {
        guard text.utf8.count % 2 == 0, Self.bytes.contains(text.utf8.count / 2), text.utf8.allSatisfy(\.isHexDigit) else { return nil }
        hex = text.lowercased()
    }

    /// The last eight digits, all that a log or an export shows of a token.
    public var ending: String { String(hex.suffix(8)) }

    /// `…` and the ``ending``: how a log names the device.
    public var logged: String { "…\(ending)" }

    public var description: String { logged }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// Which of Apple's two push services a device's token belongs to: a development build's tokens work only with the
/// sandbox, an App Store or TestFlight build's only with production.
public enum PushEnvironment: String, Codable, Hashable, Sendable, CaseIterable {
    case sandbox
    case production
}

/// A device that hears when a person's scans end (`PUT /v1/devices/{token}`), as the API shows it: the token's
/// ending only.
public struct Device: Codable, Hashable, Sendable {
    /// The token's last eight hex digits (``DeviceToken/ending``).
    public var tokenEnding: String
    /// The app the notifications go to (the APNs topic).
    public var bundleId: String
    public var environment: PushEnvironment
    /// When the app last registered the token.
    public var registeredAt: Date

    public init(tokenEnding: String, bundleId: String, environment: PushEnvironment, registeredAt: Date) {
        self.tokenEnding = tokenEnding
        self.bundleId = bundleId
        self.environment = environment
        self.registeredAt = registeredAt
    }
}
