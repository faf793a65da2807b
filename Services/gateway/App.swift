import KiwiServiceSupport

/// `kiwi-gateway`: the public HTTP API.
@main
struct App {
    static func main() async {
        await ServiceLauncher.run(GatewayConfiguration.self, build: buildApplication)
    }
}
