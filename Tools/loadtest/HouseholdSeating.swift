import NIOHTTP1

/// Seats each scanning person at a household table of `size` (`--household-size`): they create a household, and
/// `size − 1` more people, signed in for it alone, join it. Whatever the size, the members' allergies together are
/// ``allergies``, dealt out over them (all of them the scanner's in a household of one), so that the guard checks the
/// same union and withholds the same recipes at every size: what differs between sizes is the household's own cost,
/// reading every member's profile and saying for whom a recipe was withheld.
struct HouseholdSeating: Sendable {
    let size: Int

    /// The allergies the members of every household have between them: ones the stub's canned recipes seldom name, so
    /// that most answers keep their recipes and a scan does all of a scan's work.
    static let allergies = ["peanuts", "sesame", "lupin", "molluscs"]

    /// The allergies of the household's `member`-th member (0: the scanner).
    func allergies(ofMember member: Int) -> [String] {
        Self.allergies.indices.filter { $0 % size == member }.map { Self.allergies[$0] }
    }

    /// Seats `scanner` (a session token) at a new household of `size` members.
    func seat(_ scanner: String, api: GatewayAPI) async throws {
        try await Self.profile(allergies(ofMember: 0), of: scanner, api: api)
        try await api.call(.POST, "/v1/household", token: scanner, body: ["name": "Load test", "displayName": "Member 1"])
        for member in 1..<size {
            struct Invitation: Decodable { var code: String }
            let invitation: Invitation = try await api.call(.POST, "/v1/household/invitations", token: scanner)
            let joiner = try await api.signIn()
            try await Self.profile(allergies(ofMember: member), of: joiner, api: api)
            try await Self.join(invitation.code, as: joiner, named: "Member \(member + 1)", api: api)
        }
    }

    /// Joins the household of invitation `code` as `token`'s person, sharing their profile, as the join route requires.
    static func join(_ code: String, as token: String, named displayName: String, api: GatewayAPI) async throws {
        struct Join: Encodable {
            var code: String
            var displayName: String
            var shareProfile = true
        }
        try await api.call(.POST, "/v1/household/members", token: token, body: Join(code: code, displayName: displayName))
    }

    private static func profile(_ allergies: [String], of token: String, api: GatewayAPI) async throws {
        try await api.call(.PUT, "/v1/profile", token: token, body: ["allergies": allergies])
    }
}
