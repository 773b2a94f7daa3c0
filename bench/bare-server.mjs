// The baseline of the serving benchmarks: a bare node:http server answering one file, read per
// request, with single byte ranges (`bytes=N-M`) read on their own. Args: file port [content-type].
import fs from 'node:fs';
import http from 'node:http';

const [file, port, contentType = 'text/html; charset=utf-8'] = process.argv.slice(2);
const size = fs.statSync(file).size;

http
  .createServer((req, res) => {
    const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(Number(range[2]), size - 1);
      fs.open(file, 'r', (openError, fd) => {
        if (openError) return void res.writeHead(500).end();
        const body = Buffer.allocUnsafe(end - start + 1);
        fs.read(fd, body, 0, body.length, start, (error) => {
          fs.close(fd, () => {});
          if (error) return void res.writeHead(500).end();
          res.writeHead(206, {
            'Content-Type': contentType,
            'Content-Length': body.length,
            'Content-Range': `bytes ${start}-${end}/${size}`,
          });
          res.end(body);
        });
      });
      return;
    }
    fs.readFile(file, (error, body) => {
      if (error) {
        res.statusCode = 500;
        res.end();
        return;
      }
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
      res.end(body);
    });
  })
  .listen(Number(port), '127.0.0.1', () => console.log('ready'));
