// Bedrock's error answers: status, the `x-amzn-errortype` exception name and a `{"message"}` body, as AWS sends them.

/** An error the simulator answers with. */
export class BedrockSimulatedError extends Error {
  /** HTTP status */
  readonly status: number;
  /** AWS exception name, sent in `x-amzn-errortype`, e.g. `ValidationException` */
  readonly exceptionType: string;

  constructor(status: number, exceptionType: string, message: string) {
    super(message);
    this.status = status;
    this.exceptionType = exceptionType;
  }

  /** The JSON body AWS sends: only `message`. */
  toBody(): { message: string } {
    return { message: this.message };
  }
}

/** A 400 ValidationException with AWS's wording style. */
export function validationError(message: string): BedrockSimulatedError {
  return new BedrockSimulatedError(400, 'ValidationException', message);
}

/** The error a `sim-error-<status>` model answers with. */
export function bedrockStatusError(status: number, modelId: string): BedrockSimulatedError {
  switch (status) {
    case 400:
      return validationError(`The provided model identifier ${modelId} is invalid for this simulated request.`);
    case 401:
      return new BedrockSimulatedError(
        401,
        'UnrecognizedClientException',
        'The security token included in the request is invalid.',
      );
    case 403:
      return new BedrockSimulatedError(
        403,
        'AccessDeniedException',
        "You don't have access to the model with the specified model ID.",
      );
    case 404:
      return new BedrockSimulatedError(
        404,
        'ResourceNotFoundException',
        'Could not resolve the foundation model from the provided model identifier.',
      );
    case 424:
      return new BedrockSimulatedError(424, 'ModelErrorException', 'The model failed to process the request.');
    case 429:
      return new BedrockSimulatedError(
        429,
        'ThrottlingException',
        'Too many requests, please wait before trying again.',
      );
    case 500:
      return new BedrockSimulatedError(500, 'InternalServerException', 'The server encountered an internal error.');
    case 503:
      return new BedrockSimulatedError(
        503,
        'ServiceUnavailableException',
        'Bedrock is unable to process your request.',
      );
    default:
      return new BedrockSimulatedError(
        status,
        status >= 500 ? 'InternalServerException' : 'ValidationException',
        `Simulated status ${status}.`,
      );
  }
}

/** The 403 a wrong signature gets, word for word as AWS sends it. */
export function invalidSignatureError(): BedrockSimulatedError {
  return new BedrockSimulatedError(
    403,
    'InvalidSignatureException',
    'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
  );
}

/** The 403 an unknown access key id gets. */
export function unrecognizedClientError(): BedrockSimulatedError {
  return new BedrockSimulatedError(
    403,
    'UnrecognizedClientException',
    'The security token included in the request is invalid.',
  );
}

/** The 403 a request without SigV4 headers gets. */
export function missingAuthenticationError(): BedrockSimulatedError {
  return new BedrockSimulatedError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
}
