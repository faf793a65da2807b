import KiwiServiceSupport

/// `kiwi-auth`: Sign in with Apple, users and sessions.
@main
struct App {
    static func main() async {
        await ServiceLauncher.run(AuthConfiguration.self, build: buildApplication)
    }
}
