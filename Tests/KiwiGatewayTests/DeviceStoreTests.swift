import Foundation
import KiwiModels
import Testing

@testable import KiwiGateway

/// The device store, each case against ``FakeDeviceStore`` and against ``PostgresDeviceStore`` on a migrated database
/// of its own.
@Suite("Device store, fake and PostgreSQL")
struct DeviceStoreTests {
    static let stores = PortImplementations<any DeviceStore>(
        fake: { FakeDeviceStore() },
        postgres: { PostgresDeviceStore(client: $0, logger: testLogger, timeout: .seconds(60)) }
    )

    /// A registration of a token made of `byte`, 32 bytes long.
    static func registration(_ byte: UInt8, environment: PushEnvironment = .production) -> DeviceRegistration {
        DeviceRegistration(
            token: DeviceToken([UInt8](repeating: byte, count: 32).hexEncodedString)!,
            bundleID: "com.example.kiwi",
            environment: environment
        )
    }

    static let session = DeviceSession(tokenHash: String(repeating: "ab", count: 32), expiresAt: Date().addingTimeInterval(3600))
    static let otherSession = DeviceSession(tokenHash: String(repeating: "cd", count: 32), expiresAt: Date().addingTimeInterval(3600))

    @Test("a registered device is listed with its token's ending, app and environment", arguments: StoreKind.allCases)
    func registeredIsListed(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            let device = try await store.register(
                Self.registration(0x1f, environment: .sandbox),
                for: user,
                session: Self.session,
                limit: 10
            )
            #expect(device.tokenEnding == "1f1f1f1f")
            #expect(device.bundleId == "com.example.kiwi")
            #expect(device.environment == .sandbox)
            #expect(try await store.devices(of: user, at: Date()) == [device])
        }
    }

    @Test("registering a token again keeps one device, with the new environment", arguments: StoreKind.allCases)
    func registeringAgainUpdates(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            _ = try await store.register(Self.registration(1, environment: .sandbox), for: user, session: Self.session, limit: 10)
            _ = try await store.register(Self.registration(1, environment: .production), for: user, session: Self.session, limit: 10)
            #expect(try await store.devices(of: user, at: Date()).map(\.environment) == [.production])
        }
    }

    @Test("a token another person registers moves to them", arguments: StoreKind.allCases)
    func tokenMovesToTheNewPerson(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (before, after) = (UUID(), UUID())
            _ = try await store.register(Self.registration(2), for: before, session: Self.session, limit: 10)
            _ = try await store.register(Self.registration(2), for: after, session: Self.otherSession, limit: 10)
            #expect(try await store.devices(of: before, at: Date()).isEmpty)
            #expect(try await store.devices(of: after, at: Date()).count == 1)
        }
    }

    @Test("past the limit, the device registered longest ago is forgotten", arguments: StoreKind.allCases)
    func limitForgetsTheOldest(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            for byte in UInt8(1)...3 {
                _ = try await store.register(Self.registration(byte), for: user, session: Self.session, limit: 2)
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(try await store.devices(of: user, at: Date()).map(\.tokenEnding) == ["03030303", "02020202"])
        }
    }

    @Test("a person removes their own device, never another's", arguments: StoreKind.allCases)
    func removeOnlyOwn(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (owner, stranger) = (UUID(), UUID())
            let token = Self.registration(4).token
            _ = try await store.register(Self.registration(4), for: owner, session: Self.session, limit: 10)
            #expect(try await store.remove(token, of: stranger) == false)
            #expect(try await store.remove(token, of: owner) == true)
            #expect(try await store.remove(token, of: owner) == false)
            #expect(try await store.devices(of: owner, at: Date()).isEmpty)
        }
    }

    @Test("a session's devices go with it, and the person's others stay", arguments: StoreKind.allCases)
    func sessionDevicesGo(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            _ = try await store.register(Self.registration(5), for: user, session: Self.session, limit: 10)
            _ = try await store.register(Self.registration(6), for: user, session: Self.otherSession, limit: 10)
            try await store.removeAll(ofSession: Self.session.tokenHash)
            #expect(try await store.devices(of: user, at: Date()).map(\.tokenEnding) == ["06060606"])
        }
    }

    @Test("every device of a person goes, and no other person's", arguments: StoreKind.allCases)
    func personDevicesGo(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let (leaving, staying) = (UUID(), UUID())
            _ = try await store.register(Self.registration(7), for: leaving, session: Self.session, limit: 10)
            _ = try await store.register(Self.registration(8), for: leaving, session: Self.otherSession, limit: 10)
            _ = try await store.register(Self.registration(9), for: staying, session: Self.otherSession, limit: 10)
            try await store.removeAll(of: leaving)
            #expect(try await store.devices(of: leaving, at: Date()).isEmpty)
            #expect(try await store.devices(of: staying, at: Date()).count == 1)
        }
    }

    @Test("a device whose session expired is no longer listed, and the purge removes it and no other", arguments: StoreKind.allCases)
    func expiredSessionDevicesGo(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            let ending = DeviceSession(tokenHash: String(repeating: "ef", count: 32), expiresAt: Date().addingTimeInterval(60))
            _ = try await store.register(Self.registration(10), for: user, session: ending, limit: 10)
            _ = try await store.register(Self.registration(11), for: user, session: Self.session, limit: 10)
            let later = Date().addingTimeInterval(120)
            #expect(try await store.devices(of: user, at: later).map(\.tokenEnding) == ["0b0b0b0b"])
            #expect(try await store.removeExpired(before: later) == 1)
            #expect(try await store.devices(of: user, at: Date()).map(\.tokenEnding) == ["0b0b0b0b"])
        }
    }

    @Test("registrations of one person at once never leave more than the limit", arguments: StoreKind.allCases)
    func concurrentRegistrationsKeepTheLimit(_ kind: StoreKind) async throws {
        try await Self.stores.with(kind) { store in
            let user = UUID()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for byte in UInt8(20)..<28 {
                    group.addTask { _ = try await store.register(Self.registration(byte), for: user, session: Self.session, limit: 3) }
                }
                try await group.waitForAll()
            }
            #expect(try await store.devices(of: user, at: Date()).count == 3)
        }
    }
}
