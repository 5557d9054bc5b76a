import CalDAV
import Foundation

/// `alarmcal calendars`: the calendars a CalDAV server offers (discovery).
enum CalendarsCommand: ToolCommand {
  static let declaration = CommandDeclaration(
    "calendars",
    abstract: "List the calendars a CalDAV server offers.",
    discussion: """
      List the calendars a CalDAV server offers: one line each with the calendar's URL (what
      push and pull take as --url), its name and the components it takes, tab-separated.
      Discovery follows RFC 6764 (/.well-known/caldav) for a bare server URL, then the
      current-user-principal (RFC 5397) and its calendar-home-set (RFC 4791 §6.2.1).
      """,
    options: [
      SharedOptions.url.describing(
        "A server (https://host/), a principal, a calendar home or a calendar."
      ).mandatory
    ] + SharedOptions.credentials + [
      OptionDeclaration(
        "allow-other-host", .flag,
        help:
          "Follow a principal or calendar home on another host or port than --url (iCloud names one), sending the credentials there too; never from https to http. Without it such an answer is refused."
      )
    ],
    exitStatuses: [
      ExitStatus(.success), ExitStatus(.usage), ExitStatus(.unavailable), ExitStatus(.ioError),
      ExitStatus(
        .protocolError,
        "unusable CalDAV answer (not XML, too large, another host named without --allow-other-host)"
      ),
      ExitStatus(.noPermission, "credentials or access refused (401, 403)"),
    ])

  /// The server to ask, and whether calendars on other hosts may be listed.
  struct Options {
    var connection: CalDAVConnection
    var allowingOtherHosts: Bool
  }

  static func parseOptions(_ parsed: ParsedArguments, context: ToolContext) throws(UsageError)
    -> Options
  {
    guard parsed.positionals.isEmpty else {
      throw UsageError("unexpected argument '\(parsed.positionals[0])'")
    }
    return Options(
      connection: try CalDAVConnection(parsed),
      allowingOtherHosts: parsed.flags.contains("allow-other-host"))
  }

  static func perform(_ options: Options, context: ToolContext) throws(CommandFailure)
    -> ExitCode
  {
    let connection = options.connection
    let session = try connection.session(context: context)
    do {
      let calendars = try session.calendars(
        from: connection.url, allowingOtherHosts: options.allowingOtherHosts)
      for calendar in calendars {
        let components =
          calendar.components.isEmpty ? "-" : calendar.components.joined(separator: ",")
        context.standardOutput.write(
          "\(calendar.url.absoluteString)\t\(calendar.name ?? "-")\t\(components)\n")
      }
      if calendars.isEmpty {
        context.report.note("no calendars found at \(connection.url)")
      }
      return .success
    } catch {
      if !options.allowingOtherHosts, case .badResponse(_, let reason) = error,
        reason.hasSuffix(CalDAVSession.otherHostRefusal)
      {
        throw CommandFailure(
          CalDAVConnection.exitCode(for: error),
          "\(error.description) (--allow-other-host follows it)")
      }
      throw CalDAVConnection.failure(error)
    }
  }
}
