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
        try await api.call(.PUT, "/v1/profile", token: scanner, body: ["allergies": allergies(ofMember: 0)])
        try await api.createHousehold("Load test", by: scanner, named: "Member 1")
        for member in 1..<size {
            let code = try await api.invitation(by: scanner)
            let joiner = try await api.signIn()
            try await api.call(.PUT, "/v1/profile", token: joiner, body: ["allergies": allergies(ofMember: member)])
            try await api.join(code, as: joiner, named: "Member \(member + 1)")
        }
    }
}
