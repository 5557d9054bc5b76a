import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// How one HTTP exchange ended.
enum HTTPOutcome {
  case response(HTTPResponse)
  case tooLarge
  case failed(URLError)
}

/// Sends one request and blocks until its whole answer is in, or it failed.
protocol HTTPExchanging: AnyObject, Sendable {
  /// Sends `request`; `timeout` is the seconds allowed without progress, `deadline` the
  /// seconds allowed for the whole exchange (then it fails as timed out).
  func send(_ request: HTTPRequest, timeout: TimeInterval, deadline: TimeInterval)
    -> HTTPOutcome
  /// Ends the transport; it cannot be used afterwards.
  func close()
}

/// Sends one request at a time over one `URLSession` (HTTP/1.1 keep-alive) and waits for its
/// whole answer: the only type here that touches URLSession, its delegate queue and a lock.
///
/// Redirects are never followed here (the delegate hands a 3xx back to the caller, which
/// decides), and a body larger than `maximumBodyBytes` is cut off as it arrives (or refused
/// at once when its `Content-Length` says so), so a huge or endless answer costs about that
/// much memory: the pieces are kept as they came and joined once, at the end. (URLSession
/// queues pieces for the delegate without back-pressure, so on a starved machine what is
/// queued comes on top.)
final class URLSessionTransport: NSObject, URLSessionDataDelegate, HTTPExchanging,
  @unchecked Sendable
{
  // @unchecked: `exchanges` is only touched under `lock`; the session is thread-safe.

  /// What one task has received so far.
  private final class Exchange {
    var response: HTTPURLResponse?
    /// The body's pieces as they came (an array grown by appending is copied each time its
    /// capacity doubles).
    var pieces: [Data] = []
    var count = 0
    var overflow = false
    var error: URLError?
    var refusedCredentials = false
    let done = DispatchSemaphore(value: 0)
  }

  private let lock = NSLock()
  private var exchanges: [Int: Exchange] = [:]
  private var session: URLSession?
  private let maximumBodyBytes: Int

  /// A transport whose requests time out after `timeout` seconds without progress.
  init(timeout: TimeInterval, maximumBodyBytes: Int) {
    self.maximumBodyBytes = maximumBodyBytes
    super.init()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.timeoutIntervalForResource = timeout * 10
    configuration.httpMaximumConnectionsPerHost = 4
    configuration.httpShouldSetCookies = false
    configuration.urlCache = nil
    configuration.urlCredentialStorage = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
  }

  /// Ends the session; the transport cannot be used afterwards.
  func close() {
    lock.lock()
    let current = session
    session = nil
    lock.unlock()
    current?.finishTasksAndInvalidate()
  }

  /// Sends `request` and blocks until its answer is complete, failed or too large, or
  /// `deadline` seconds have passed (then the task is cancelled and the exchange timed out).
  func send(_ request: HTTPRequest, timeout: TimeInterval, deadline: TimeInterval)
    -> HTTPOutcome
  {
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method
    urlRequest.timeoutInterval = timeout
    for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
    if !request.body.isEmpty || ["PUT", "PROPFIND", "REPORT"].contains(request.method) {
      urlRequest.httpBody = Data(request.body)
    }
    let exchange = Exchange()
    lock.lock()
    guard let session else {
      lock.unlock()
      return .failed(URLError(.cancelled))
    }
    let task = session.dataTask(with: urlRequest)
    exchanges[task.taskIdentifier] = exchange
    lock.unlock()
    task.resume()
    let finished = exchange.done.wait(timeout: .now() + max(deadline, 0)) == .success
    if !finished {
      task.cancel()
      _ = exchange.done.wait(timeout: .now() + 5)
    }
    lock.lock()
    exchanges[task.taskIdentifier] = nil
    lock.unlock()
    if !finished { return .failed(URLError(.timedOut)) }
    if exchange.overflow { return .tooLarge }
    if exchange.refusedCredentials {
      return .response(HTTPResponse(status: 401, headers: [:], body: [], url: request.url))
    }
    if let error = exchange.error { return .failed(error) }
    guard let response = exchange.response else { return .failed(URLError(.badServerResponse)) }
    var headers: [String: String] = [:]
    for (key, value) in response.allHeaderFields {
      if let name = key as? String, let text = value as? String {
        headers[name.lowercased()] = text
      }
    }
    return .response(
      HTTPResponse(
        status: response.statusCode, headers: headers, body: Self.joined(&exchange.pieces),
        url: response.url ?? request.url))
  }

  /// The pieces as one array, each let go as soon as it is copied.
  private static func joined(_ pieces: inout [Data]) -> [UInt8] {
    var body: [UInt8] = []
    body.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
    for index in pieces.indices {
      body.append(contentsOf: pieces[index])
      pieces[index] = Data()
    }
    pieces = []
    return body
  }

  private func exchange(for task: URLSessionTask) -> Exchange? {
    lock.lock()
    defer { lock.unlock() }
    return exchanges[task.taskIdentifier]
  }

  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
  ) {
    guard let exchange = exchange(for: dataTask) else { return completionHandler(.cancel) }
    exchange.response = response as? HTTPURLResponse
    if response.expectedContentLength > Int64(maximumBodyBytes) {
      exchange.overflow = true
      completionHandler(.cancel)
      return
    }
    completionHandler(.allow)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    guard let exchange = exchange(for: dataTask), !exchange.overflow else { return }
    if exchange.count + data.count > maximumBodyBytes {
      exchange.overflow = true
      exchange.pieces = []
      dataTask.cancel()
      return
    }
    exchange.count += data.count
    exchange.pieces.append(data)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask,
    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
    completionHandler: @escaping (URLRequest?) -> Void
  ) {
    // The caller follows redirects itself: URLSession would drop a PROPFIND's body.
    completionHandler(nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    #if !canImport(FoundationNetworking)
      // On Apple's systems a server-trust challenge is the TLS check: their verdict stands.
      // (FoundationNetworking checks TLS in libcurl and never asks.)
      if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
        completionHandler(.performDefaultHandling, nil)
        return
      }
    #endif
    // The Authorization header goes with every request, so a challenge means it was refused:
    // the transfer stops here and is reported as the 401 it was (FoundationNetworking would
    // otherwise wait for credentials that never come).
    exchange(for: task)?.refusedCredentials = true
    completionHandler(.cancelAuthenticationChallenge, nil)
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    guard let exchange = exchange(for: task) else { return }
    if let error, !exchange.overflow {
      exchange.error = (error as? URLError) ?? URLError(.unknown)
    }
    exchange.done.signal()
  }
}
