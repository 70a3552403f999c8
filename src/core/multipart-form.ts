/** One uploaded file, held in memory (bounded by the upload limit). */
export interface UploadedFile {
  fieldName: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** The text fields and files of a multipart request, as the server read them and the client protocols parse them. */
export interface MultipartForm {
  fields: Record<string, string>;
  /** repeated fields such as `timestamp_granularities[]`, in order */
  repeatedFields: Array<[string, string]>;
  files: UploadedFile[];
}
