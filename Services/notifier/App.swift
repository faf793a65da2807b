import KiwiServiceSupport

/// `kiwi-notifier`: tells a person's phones that their scan has ended.
@main
struct App {
    static func main() async {
        await ServiceLauncher.run(NotifierConfiguration.self, build: buildApplication)
    }
}
