import Foundation
import ICalendar

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How patient and how trusting a ``DAVClient`` is.
public struct DAVClientPolicy: Sendable {
  /// Seconds without an answer before a request fails.
  public var timeout: TimeInterval = 30
  /// Seconds one request may take in all, its retries, redirects and waits included, however
  /// steadily the server trickles its answer; then it fails as timed out.
  public var deadline: TimeInterval = 120
  /// How often a request is tried again after a 5xx or a connection error.
  public var retries = 3
  /// The wait before the first retry, doubled for each further one.
  public var backoff: TimeInterval = 0.25
  /// The largest response body accepted.
  public var maximumBodyBytes = 256 << 20
  /// How many redirects (each within the same scheme, host and port) are followed.
  public var maximumRedirects = 5
  /// When set, HTTP runs in a child process started with this command (see
  /// ``TransportCommand``); when nil, in this process.
  public var transportCommand: TransportCommand?

  /// The defaults: 30 s without progress, 120 s in all, 3 retries from 0.25 s, 256 MiB,
  /// 5 redirects.
  public init() {}
}

/// A WebDAV/CalDAV HTTP client: Basic authentication sent with each request, redirects
/// followed only within the first URL's host, retries with backoff on 5xx and connection
/// errors, bodies bounded. Blocking: each call returns when its exchange is over.
public final class DAVClient: Sendable {
  private let transport: any HTTPExchanging
  private let credentials: Credentials?
  private let policy: DAVClientPolicy

  /// Requests made so far (each retry and redirect counts).
  public var requestCount: Int { counter.withLock { $0 } }
  private let counter = Locked(0)

  /// A client that authenticates with `credentials`, when given (then this process is made
  /// non-dumpable, as its transport process is).
  public init(credentials: Credentials?, policy: DAVClientPolicy = DAVClientPolicy()) {
    if credentials != nil { ProcessHardening.forbidDumps() }
    self.credentials = credentials
    self.policy = policy
    if let command = policy.transportCommand {
      transport = TransportProcess(command: command, maximumBodyBytes: policy.maximumBodyBytes)
    } else {
      transport = URLSessionTransport(
        timeout: policy.timeout, maximumBodyBytes: policy.maximumBodyBytes)
    }
  }

  deinit { transport.close() }

  /// Sends `request`, following same-host redirects and retrying as the policy says; returns
  /// any final response (a 4xx too), or throws when there is none to use.
  public func send(_ request: HTTPRequest) throws(DAVError) -> HTTPResponse {
    var current = request
    var redirects = 0
    let end = DispatchTime.now().uptimeNanoseconds + Self.nanoseconds(policy.deadline)
    while true {
      let response = try sendWithRetries(current, end: end)
      guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
      let location = response.headers["location"] ?? ""
      guard redirects < policy.maximumRedirects,
        let target = URL(string: location, relativeTo: current.url)?.absoluteURL,
        target.scheme == request.url.scheme, target.host == request.url.host,
        target.port == request.url.port
      else {
        throw .redirectRefused(url: current.url.absoluteString, location: location)
      }
      redirects += 1
      current.url = target
      if response.status == 303 {
        current.method = "GET"
        current.body = []
      }
    }
  }

  /// Seconds as nanoseconds, for a deadline on the uptime clock.
  private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
    UInt64(max(0, min(seconds, 1e9)) * 1e9)
  }

  /// Seconds left until `end` on the uptime clock, or nil when none are.
  private static func remaining(until end: UInt64) -> TimeInterval? {
    let now = DispatchTime.now().uptimeNanoseconds
    return now < end ? Double(end - now) / 1e9 : nil
  }

  private func sendWithRetries(_ request: HTTPRequest, end: UInt64) throws(DAVError)
    -> HTTPResponse
  {
    var attempt = 0
    var signed = request
    signed.headers["User-Agent"] = "alarmcal"
    if let credentials { signed.headers["Authorization"] = credentials.basicAuthorization }
    let url = request.url.absoluteString
    while true {
      guard let left = Self.remaining(until: end) else { throw .timedOut(url: url) }
      counter.withLock { $0 += 1 }
      let outcome = transport.send(signed, timeout: min(policy.timeout, left), deadline: left)
      let failure: DAVError
      switch outcome {
      case .response(let response):
        guard (500..<600).contains(response.status), response.status != 507,
          response.status != 501
        else { return response }
        failure = .status(response.status, url: url)
      case .tooLarge:
        throw .bodyTooLarge(url: url, limit: policy.maximumBodyBytes)
      case .failed(let error):
        failure = Self.classify(error, url: url)
        if case .tls = failure { throw failure }
      }
      guard attempt < policy.retries, let left = Self.remaining(until: end) else { throw failure }
      Thread.sleep(forTimeInterval: min(policy.backoff * Double(1 << attempt), left))
      attempt += 1
    }
  }

  /// Whether libcurl's message names a TLS failure: FoundationNetworking reports a certificate
  /// libcurl did not trust ("SSL certificate problem: ...", "SSL: no alternative certificate
  /// subject name matches ...") as an unknown error with that message.
  static func isTLSFailure(_ message: String) -> Bool {
    message.hasPrefix("SSL") || message.contains("OpenSSL") || message.contains("certificate")
  }

  /// The error a URLSession failure stands for.
  static func classify(_ error: URLError, url: String) -> DAVError {
    switch error.code {
    case .timedOut: return .timedOut(url: url)
    case .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
      .clientCertificateRejected, .clientCertificateRequired, .secureConnectionFailed:
      return .tls(url: url, reason: error.localizedDescription)
    case .unknown where isTLSFailure(error.localizedDescription):
      return .tls(url: url, reason: error.localizedDescription)
    default:
      let reason =
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .cannotFindHost, .dnsLookupFailed: "unknown host"
        case .networkConnectionLost: "connection lost"
        case .notConnectedToInternet: "no network"
        default: error.localizedDescription
        }
      return .unreachable(url: url, reason: reason)
    }
  }
}
