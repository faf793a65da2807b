import Foundation
import Hummingbird
import KiwiModels
import KiwiServiceSupport
import Logging

/// The person's devices (`/v1/devices/{token}`): `PUT` registers an APNs token, so that the phone hears when a scan
/// ends (docs/architecture.md, "Push notifications"), with the app's bundle id and push environment; `DELETE` removes
/// it. A token that is not 64 to 200 hex digits is 400; another person's is 404, like one never registered.
struct DevicesController: Sendable {
    let devices: any DeviceStore

    /// How many devices one person keeps: registering one more forgets the one registered longest ago (an old phone
    /// whose app never said goodbye).
    static let perPerson = 10

    func addRoutes(to group: RouterGroup<GatewayRequestContext>) {
        group.put("devices/:token", use: register)
        group.delete("devices/:token", use: remove)
    }

    /// `PUT /v1/devices/{token}` with `{"bundleId", "environment"}`: 200 with the device. Registering again (apps do at
    /// every launch) updates it and ties it to this session.
    @Sendable func register(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let token = try Self.token(context)
        let body = try await request.decodedBody(as: DeviceRegistrationBody.self, largest: 1024, example: DeviceRegistrationBody.example)
        let registration = DeviceRegistration(token: token, bundleID: body.bundleID, environment: body.environment)
        let device = try await devices.register(
            registration,
            for: session.userID,
            session: DeviceSession(tokenHash: session.tokenHash, expiresAt: session.expiresAt),
            limit: Self.perPerson
        )
        context.logger.info("device registered", metadata: ["device": "\(token.logged)", "environment": "\(body.environment.rawValue)"])
        return try Response.json(device)
    }

    /// `DELETE /v1/devices/{token}`: 204.
    @Sendable func remove(request: Request, context: GatewayRequestContext) async throws -> Response {
        let session = try context.authenticatedSession
        let token = try Self.token(context)
        guard try await devices.remove(token, of: session.userID) else { throw Self.notFound }
        context.logger.info("device removed", metadata: ["device": "\(token.logged)"])
        return Response(status: .noContent)
    }

    private static func token(_ context: GatewayRequestContext) throws -> DeviceToken {
        guard let token = context.parameters.get("token").flatMap(DeviceToken.init) else {
            throw APIError.badRequest(
                "A device token is the APNs token in hex: \(DeviceToken.bytes.lowerBound * 2) to \(DeviceToken.bytes.upperBound * 2) hex digits, an even number."
            )
        }
        return token
    }

    private static let notFound = APIError(.notFound, .notFound, "There is no such device.")
}

/// The body of `PUT /v1/devices/{token}`.
struct DeviceRegistrationBody: Decodable {
    /// The app's bundle id, which APNs takes as the notification's topic.
    var bundleID: String
    var environment: PushEnvironment

    static let example = #"{"bundleId": "com.example.kiwi", "environment": "production"}"#

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: BodyMember.self)
        try body.refuseMembers(otherThan: ["bundleId", "environment"])
        let bundleRule = APIError.badRequest(
            "bundleId must be the app's bundle id, such as com.example.kiwi: letters, digits, hyphens and dots, at most 155 characters."
        )
        guard let bundleID: String = try body.value("bundleId", else: bundleRule), Self.isBundleID(bundleID) else { throw bundleRule }
        let environmentRule = APIError.badRequest("environment must be sandbox (a development build) or production.")
        guard let environment: String = try body.value("environment", else: environmentRule), let known = PushEnvironment(rawValue: environment)
        else {
            throw environmentRule
        }
        self.bundleID = bundleID
        self.environment = known
    }

    /// A reverse-DNS name of two parts or more, as Apple's bundle ids are.
    static func isBundleID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return text.utf8.count <= 155 && parts.count >= 2
            && parts.allSatisfy { part in !part.isEmpty && part.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") } }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
