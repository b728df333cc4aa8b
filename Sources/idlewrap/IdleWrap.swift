@main
enum IdleWrap {
    static func main() {}
}
