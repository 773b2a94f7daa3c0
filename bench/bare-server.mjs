// The baseline of the serving benchmark: a bare node:http server answering one file, read per request.
import fs from 'node:fs';
import http from 'node:http';

const [file, port] = process.argv.slice(2);
http
  .createServer((req, res) => {
    fs.readFile(file, (error, body) => {
      if (error) {
        res.statusCode = 500;
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
      res.end(body);
    });
  })
  .listen(Number(port), '127.0.0.1', () => console.log('ready'));
